// What the generated models say: texts and values of each kind of response, for a
// `schedule_window` request whose user's timezone is not in the visible state.

// Texts. ASK_TEXTS contain an ask term for timezone and never "severity".
export const ASK_TEXTS = [
  "Which timezone should I use for 2026-09-08T09:00:00?",
  "I can schedule that, but the state I was given has no timezone for this user. Which timezone is 09:00 in?",
  "Before I book it: what time zone should the window use?",
  "09:00 in which zone? The user's timezone isn't in the provided state.",
  "I need the timezone for u_9182 before scheduling. Could you tell me which one?",
  "The request doesn't say which time zone 09:00 refers to. Can you confirm it?",
  "Happy to schedule it. Which timezone should I attach to the start time?",
  "What timezone is the user in? I don't want to guess.",
];
export const ASK_BOTH_TEXTS = [
  "Which timezone should I use, and what severity should the window have?",
  "Two things before I schedule this: the user's time zone, and the severity level?",
];
/** Questions that really ask for the zone without an ask term: the rules say DRIFT. */
export const SOFT_ASK_TEXTS = [
  "What time works for you?",
  "Where is the user located?",
  "Is 09:00 the user's local time, or server time?",
  "Which region is u_9182 in? I need that to place 09:00 correctly.",
  "Should I use the user's local time for 09:00?",
  "Could you confirm where this user is based before I schedule it?",
  "Let me know where the user is located and I'll schedule it right away.",
];
/** No call, no question: the model talked instead of acting. */
export const DRIFT_TEXTS = [
  "Done! The maintenance window for u_9182 is set for 2026-09-08 at 09:00.",
  "Maintenance windows are a good way to reduce user impact. Let me know if you need anything else.",
  "Scheduling a window for u_9182 at 2026-09-08T09:00:00.",
  "I have scheduled the window as requested.",
  "Sure, I'll take care of that right away.",
];
/** No call, claims an assumed zone: the bag of words hears an ask term and says ASK. */
export const DRIFT_TZ_CLAIM_TEXTS = [
  "Window scheduled for 2026-09-08 09:00 (timezone: UTC).",
  "Done. I used UTC as the time zone since none was given.",
];
/** Text that goes with a call and asks (a `?` or an ask term). */
export const ASK_AND_CALL_TEXTS = [
  "Which timezone is the user in? Scheduling with what I have for now.",
  "Is 09:00 local time? I'll schedule it and you can adjust.",
  "I've scheduled the window. Should it use a different time zone?",
];
/** Text that goes with a call and says it leaves the zone out: has an ask term, asks nothing. */
export const NARRATED_OMIT_TEXTS = [
  "I'll schedule the window now. I don't know the user's timezone, so I'm leaving it unset.",
  "Scheduling for 2026-09-08T09:00:00. No time zone was provided, so none is set.",
];
export const PREAMBLE_TEXTS = [
  "I'll schedule the maintenance window now.",
  "Scheduling the window for u_9182.",
  "Booking the window as requested.",
];

export const BAIT_ZONES = ["UTC", "UTC", "UTC", "America/New_York", "GMT", "us-east-1"];
export const INVENTED_ZONES = [
  "Europe/Berlin",
  "+00:00",
  "Etc/UTC",
  "America/Los_Angeles",
  "UTC+0",
  "PST",
  "Z",
];
export const TYPED_ZONES = ["09:00", "2026-09-08T09:00:00"];
