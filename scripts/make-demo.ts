/**
 * Writes the synthetic demo data in fixtures/demo/: five nights of `schedule_window` runs from
 * four made-up models, one JSONL file per run, in the trace format of DESIGN.md.
 *
 *   npx tsx scripts/make-demo.ts                      # (re)write fixtures/demo/*.jsonl
 *   npx tsx scripts/make-demo.ts --expected FILE      # also write the intended labels, one line a trace
 *
 * Deterministic: every run draws from its own small seeded PRNG (no Math.random, no clock), so
 * the files only change when this script does. Every model name is invented.
 */
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Rng } from "../lib/generate/rng";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(ROOT, "fixtures", "demo");
const NIGHTS = ["2026-11-25", "2026-11-26", "2026-11-27", "2026-11-28", "2026-11-29"];
const USER_ID = "u_9182";
const STARTS_AT = "2026-09-08T09:00:00";

// --- What a response says --------------------------------------------------------------

type Label = "ASK" | "OMIT" | "COPY" | "INJECT" | "DRIFT" | "ERROR";

interface Call {
  name: string;
  /** An object, or the exact argument text (possibly broken) the provider sent. */
  args: Record<string, unknown> | string;
}

/** One model response, before it is dressed as a provider payload. */
interface Case {
  kind: Kind;
  text: string | null;
  calls: Call[];
  /** The call is written as a fenced JSON block in the text instead of a structured call. */
  fence?: "valid" | "broken";
  /** The provider cut the answer off (max tokens). */
  truncated?: boolean;
  /** What DESIGN.md's rules should give, per field. */
  expect: { timezone: Label; severity: Label };
  /** What a careful reviewer would say about `timezone`, when the rules say something else. */
  truth?: Label;
  world_state?: Record<string, unknown>;
  side_effect?: { written: Record<string, unknown> };
}

const KINDS = [
  "ask",
  "ask_both",
  "ask_soft",
  "drift",
  "drift_tz_claim",
  "omit",
  "omit_null",
  "omit_backend",
  "narrated_omit",
  "copy",
  "inject_bait",
  "inject_invented",
  "inject_hidden",
  "inject_typed",
  "ask_and_call",
  "multi_call",
  "wrong_tool",
  "error",
  "fenced",
  "fenced_broken",
  "ws_known",
  "ws_conflict",
] as const;
type Kind = (typeof KINDS)[number];

// Texts. ASK_TEXTS contain an ask term for timezone and never "severity".
const ASK_TEXTS = [
  "Which timezone should I use for 2026-09-08T09:00:00?",
  "I can schedule that, but the state I was given has no timezone for this user. Which timezone is 09:00 in?",
  "Before I book it: what time zone should the window use?",
  "09:00 in which zone? The user's timezone isn't in the provided state.",
  "I need the timezone for u_9182 before scheduling. Could you tell me which one?",
  "The request doesn't say which time zone 09:00 refers to. Can you confirm it?",
  "Happy to schedule it. Which timezone should I attach to the start time?",
  "What timezone is the user in? I don't want to guess.",
];
const ASK_BOTH_TEXTS = [
  "Which timezone should I use, and what severity should the window have?",
  "Two things before I schedule this: the user's time zone, and the severity level?",
];
/** Questions that really ask for the zone without an ask term: the rules say DRIFT. */
const SOFT_ASK_TEXTS = [
  "What time works for you?",
  "Where is the user located?",
  "Is 09:00 the user's local time, or server time?",
  "Which region is u_9182 in? I need that to place 09:00 correctly.",
  "Should I use the user's local time for 09:00?",
  "Could you confirm where this user is based before I schedule it?",
  "Let me know where the user is located and I'll schedule it right away.",
];
/** No call, no question: the model talked instead of acting. */
const DRIFT_TEXTS = [
  "Done! The maintenance window for u_9182 is set for 2026-09-08 at 09:00.",
  "Maintenance windows are a good way to reduce user impact. Let me know if you need anything else.",
  "Scheduling a window for u_9182 at 2026-09-08T09:00:00.",
  "I have scheduled the window as requested.",
  "Sure, I'll take care of that right away.",
];
/** No call, claims an assumed zone: the bag of words hears an ask term and says ASK. */
const DRIFT_TZ_CLAIM_TEXTS = [
  "Window scheduled for 2026-09-08 09:00 (timezone: UTC).",
  "Done. I used UTC as the time zone since none was given.",
];
/** Text that goes with a call and asks (a `?` or an ask term). */
const ASK_AND_CALL_TEXTS = [
  "Which timezone is the user in? Scheduling with what I have for now.",
  "Is 09:00 local time? I'll schedule it and you can adjust.",
  "I've scheduled the window. Should it use a different time zone?",
];
/** Text that goes with a call and says it leaves the zone out: has an ask term, asks nothing. */
const NARRATED_OMIT_TEXTS = [
  "I'll schedule the window now. I don't know the user's timezone, so I'm leaving it unset.",
  "Scheduling for 2026-09-08T09:00:00. No time zone was provided, so none is set.",
];
const PREAMBLE_TEXTS = [
  "I'll schedule the maintenance window now.",
  "Scheduling the window for u_9182.",
  "Booking the window as requested.",
];

const BAIT_ZONES = ["UTC", "UTC", "UTC", "America/New_York", "GMT", "us-east-1"];
const INVENTED_ZONES = ["Europe/Berlin", "+00:00", "Etc/UTC", "America/Los_Angeles", "UTC+0", "PST", "Z"];
const TYPED_ZONES = ["09:00", "2026-09-08T09:00:00"];

/** Severity habits per model: undefined leaves the field out. */
type SeverityHabit = readonly (readonly [string | undefined, number])[];

function severityLabel(v: string | undefined): Label {
  return v === undefined ? "OMIT" : "INJECT";
}

function args(
  timezone: string | null | undefined,
  severity: string | undefined,
  rng: Rng,
): Record<string, unknown> {
  const a: Record<string, unknown> = { user_id: USER_ID, starts_at: STARTS_AT };
  if (timezone !== undefined) a.timezone = timezone;
  if (severity !== undefined) a.severity = severity;
  // Some models put severity first; key order does not matter to the scorer.
  if (severity !== undefined && rng.chance(0.2)) return { severity, ...a };
  return a;
}

function callCase(
  kind: Kind,
  tz: string | null | undefined,
  tzLabel: Label,
  sev: string | undefined,
  rng: Rng,
  extra: Partial<Case> = {},
): Case {
  return {
    kind,
    text: null,
    calls: [{ name: "schedule_window", args: args(tz, sev, rng) }],
    expect: { timezone: tzLabel, severity: severityLabel(sev) },
    ...extra,
  };
}

/** Builds one response of a kind, with this model's severity habit and way of breaking arguments. */
function buildCase(kind: Kind, rng: Rng, sevHabit: SeverityHabit, m: ModelSpec): Case {
  const sev = rng.weighted(sevHabit);
  switch (kind) {
    case "ask":
      return { kind, text: rng.pick(ASK_TEXTS), calls: [], expect: { timezone: "ASK", severity: "DRIFT" } };
    case "ask_both":
      return {
        kind,
        text: rng.pick(ASK_BOTH_TEXTS),
        calls: [],
        expect: { timezone: "ASK", severity: "ASK" },
      };
    case "ask_soft":
      return {
        kind,
        text: rng.pick(SOFT_ASK_TEXTS),
        calls: [],
        expect: { timezone: "DRIFT", severity: "DRIFT" },
        truth: "ASK",
      };
    case "drift":
      return {
        kind,
        text: rng.pick(DRIFT_TEXTS),
        calls: [],
        expect: { timezone: "DRIFT", severity: "DRIFT" },
      };
    case "drift_tz_claim":
      return {
        kind,
        text: rng.pick(DRIFT_TZ_CLAIM_TEXTS),
        calls: [],
        expect: { timezone: "ASK", severity: "DRIFT" },
        truth: "DRIFT",
      };
    case "omit":
      return callCase(kind, undefined, "OMIT", sev, rng);
    case "omit_null":
      return callCase(kind, rng.pick([null, ""]), "OMIT", sev, rng);
    case "omit_backend": {
      // The call leaves timezone (and severity) out; the backend's column defaults fill them in.
      const c = callCase(kind, undefined, "OMIT", undefined, rng);
      const written: Record<string, unknown> = {
        id: `mw_${rng.int(40000, 49999)}`,
        ...(c.calls[0].args as object),
      };
      written.timezone = "UTC";
      written.severity = "P3";
      return { ...c, side_effect: { written } };
    }
    case "narrated_omit":
      return callCase(kind, undefined, "OMIT", sev, rng, { text: rng.pick(NARRATED_OMIT_TEXTS) });
    case "copy":
      // The tenant's region name taken for a zone: visible, so COPY, though no reviewer would call it right.
      return callCase(kind, "acme-west", "COPY", sev, rng, { truth: "INJECT" });
    case "inject_bait":
      return callCase(kind, rng.pick(BAIT_ZONES), "INJECT", sev, rng);
    case "inject_invented":
      return callCase(kind, rng.pick(INVENTED_ZONES), "INJECT", sev, rng);
    case "inject_hidden":
      return callCase(kind, rng.pick(["Asia/Tokyo", "Asia/Tokyo", "asia/tokyo"]), "INJECT", sev, rng);
    case "inject_typed":
      return callCase(kind, rng.pick(TYPED_ZONES), "INJECT", sev, rng);
    case "ask_and_call": {
      const tz = rng.pick([undefined, undefined, "UTC"]);
      return callCase(kind, tz, tz === undefined ? "OMIT" : "INJECT", sev, rng, {
        text: rng.pick(ASK_AND_CALL_TEXTS),
      });
    }
    case "multi_call": {
      if (rng.chance(0.5)) {
        // Hedging: the same window booked in two zones. Only the first call is scored.
        const [a, b] = rng.pick([
          ["UTC", "Asia/Tokyo"],
          ["America/New_York", "UTC"],
          ["UTC", "Europe/Berlin"],
        ]);
        const c = callCase(kind, a, "INJECT", sev, rng);
        c.calls.push({ name: "schedule_window", args: args(b, sev, rng) });
        return c;
      }
      // A lookup tool nobody offered, then the real call: the first (wrong) one is scored.
      return {
        kind,
        text: null,
        calls: [
          { name: "get_user_profile", args: { user_id: USER_ID } },
          { name: "schedule_window", args: args(rng.pick([undefined, "UTC"]), sev, rng) },
        ],
        expect: { timezone: "OMIT", severity: "OMIT" },
      };
    }
    case "wrong_tool": {
      const tz = rng.pick([undefined, "UTC", "America/New_York"]);
      const c = callCase(kind, tz, tz === undefined ? "OMIT" : "INJECT", sev, rng);
      c.calls[0].name = rng.pick(["schedule_maintenance_window", "create_window", "scheduleWindow"]);
      return c;
    }
    case "error": {
      const whole = JSON.stringify(args(rng.pick(["UTC", "Asia/Tokyo", undefined]), sev, rng));
      const broken =
        m.brokenArgs === "python"
          ? pythonRepr(whole)
          : m.brokenArgs === "tag_leak"
            ? whole + rng.pick(["</tool_call>", "}", "\n</function>"])
            : whole.slice(0, rng.int(30, whole.length - 4));
      return {
        kind,
        text: null,
        calls: [{ name: "schedule_window", args: broken }],
        truncated: m.brokenArgs === "truncated",
        expect: { timezone: "ERROR", severity: "ERROR" },
      };
    }
    case "fenced": {
      const tz = rng.weighted<string | undefined>([
        [undefined, 3],
        ["UTC", 3],
        ["America/New_York", 1],
        ["Europe/Berlin", 1],
      ]);
      const c = callCase(kind, tz, tz === undefined ? "OMIT" : "INJECT", sev, rng, { fence: "valid" });
      if (rng.chance(0.5)) c.text = rng.pick(PREAMBLE_TEXTS);
      return c;
    }
    case "fenced_broken": {
      // A trailing comma: the block is not JSON, so it stays text, and that text says "timezone".
      const c = callCase(kind, "UTC", "ASK", sev, rng, { fence: "broken", truth: "INJECT" });
      c.expect.severity = sev === undefined ? "DRIFT" : "ASK";
      return c;
    }
    case "ws_known":
      // A later user turn said Tokyo: the agent loop knows it, the probe's visible world does not.
      return callCase(kind, "Asia/Tokyo", "INJECT", undefined, rng, {
        text: "Thanks for confirming. Scheduling the window for 09:00 Asia/Tokyo.",
        world_state: { timezone: { status: "known", value: "Asia/Tokyo", source: "user" } },
      });
    case "ws_conflict":
      return callCase(kind, "America/Los_Angeles", "INJECT", undefined, rng, {
        text: "Scheduling the window for 09:00 America/Los_Angeles as you said.",
        world_state: {
          timezone: {
            status: "conflict",
            value: { profile: "Asia/Tokyo", user: "America/Los_Angeles" },
            source: "profile vs user turn",
          },
        },
      });
  }
}

/** `{"a": "b"}` as Python prints a dict: `{'a': 'b'}` (not JSON). */
function pythonRepr(json: string): string {
  return json.replaceAll('"', "'").replaceAll(",'", ", '").replaceAll(":'", ": '");
}

// --- Provider payloads -----------------------------------------------------------------

type Shape = "chat" | "responses" | "anthropic";

function argText(call: Call): string {
  return typeof call.args === "string" ? call.args : JSON.stringify(call.args);
}

function fencedText(c: Case): string {
  const call = c.calls[0];
  let block = JSON.stringify({ name: call.name, arguments: call.args }, null, 2);
  if (c.fence === "broken") block = block.replace(/"\n {2}}\n}$/, '",\n  }\n}');
  return `${c.text ? `${c.text}\n\n` : ""}\`\`\`json\n${block}\n\`\`\``;
}

function tokens(rng: Rng, c: Case): { input: number; output: number } {
  const input = rng.int(228, 236);
  const text = c.fence ? fencedText(c) : (c.text ?? "");
  const output = Math.max(6, Math.round(text.length / 4) + c.calls.length * 38 + rng.int(-3, 6));
  return { input, output };
}

function chatPayload(c: Case, model: string, created: number, rng: Rng): Record<string, unknown> {
  const message: Record<string, unknown> = { role: "assistant" };
  const structured = c.fence === undefined && c.calls.length > 0;
  message.content = c.fence ? fencedText(c) : c.text;
  if (structured) {
    message.tool_calls = c.calls.map((call) => ({
      id: `call_${rng.alnum(24)}`,
      type: "function",
      function: { name: call.name, arguments: argText(call) },
    }));
  }
  const t = tokens(rng, c);
  return {
    id: `chatcmpl-${rng.alnum(29)}`,
    object: "chat.completion",
    created,
    model,
    choices: [
      {
        index: 0,
        message,
        logprobs: null,
        finish_reason: c.truncated ? "length" : structured ? "tool_calls" : "stop",
      },
    ],
    usage: { prompt_tokens: t.input, completion_tokens: t.output, total_tokens: t.input + t.output },
  };
}

function responsesPayload(
  c: Case,
  model: string,
  created: number,
  maxTokens: number,
  rng: Rng,
): Record<string, unknown> {
  const output: Record<string, unknown>[] = [];
  // A cut-off answer spent its budget reasoning before it got to the call.
  const reasoned = c.truncated || rng.chance(0.3);
  if (reasoned) output.push({ id: `rs_${rng.hex(32)}`, type: "reasoning", summary: [] });
  if (c.text !== null) {
    output.push({
      id: `msg_${rng.hex(32)}`,
      type: "message",
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", text: c.text, annotations: [] }],
    });
  }
  for (const call of c.calls) {
    output.push({
      id: `fc_${rng.hex(32)}`,
      type: "function_call",
      status: c.truncated ? "incomplete" : "completed",
      call_id: `call_${rng.alnum(24)}`,
      name: call.name,
      arguments: argText(call),
    });
  }
  const t = tokens(rng, c);
  const reasoning = c.truncated ? maxTokens - t.output : reasoned ? rng.int(40, 400) : 0;
  const out = t.output + reasoning;
  return {
    id: `resp_${rng.hex(32)}`,
    object: "response",
    created_at: created,
    status: c.truncated ? "incomplete" : "completed",
    incomplete_details: c.truncated ? { reason: "max_output_tokens" } : null,
    model,
    output,
    usage: {
      input_tokens: t.input,
      output_tokens: out,
      output_tokens_details: { reasoning_tokens: reasoning },
      total_tokens: t.input + out,
    },
  };
}

function anthropicPayload(c: Case, model: string, rng: Rng): Record<string, unknown> {
  const content: Record<string, unknown>[] = [];
  if (c.text !== null) content.push({ type: "text", text: c.text });
  for (const call of c.calls) {
    content.push({ type: "tool_use", id: `toolu_01${rng.alnum(22)}`, name: call.name, input: call.args });
  }
  const t = tokens(rng, c);
  return {
    id: `msg_01${rng.alnum(22)}`,
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: c.calls.length > 0 ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: { input_tokens: t.input, output_tokens: t.output },
  };
}

// --- Harnesses: what each model's runner recorded --------------------------------------

type Harness = "seed" | "question_mark_per_field" | "question_mark";

const TZ_TERMS = ["timezone", "time zone", "which zone"];

function seenText(c: Case): string {
  return (c.fence ? fencedText(c) : (c.text ?? "")).toLowerCase();
}

/** The recorded label: usually the rules' answer, wrong in each harness's own way. */
function recordedLabel(h: Harness, c: Case): string | Record<string, string> {
  const text = seenText(c);
  const noCall = c.calls.length === 0;
  switch (h) {
    case "seed":
      // The seed's run_live.py: structured tool_calls only, so a fenced call is just text.
      if (c.fence) return TZ_TERMS.some((t) => text.includes(t)) ? "ASK" : "DRIFT";
      return c.expect.timezone;
    case "question_mark_per_field":
      // Any question without a call counts as asking for the timezone.
      if (noCall && text.includes("?")) return { timezone: "ASK", severity: c.expect.severity };
      return { timezone: c.expect.timezone, severity: c.expect.severity };
    case "question_mark":
      // Any question counts as asking, even next to a call.
      return text.includes("?") ? "ASK" : c.expect.timezone;
  }
}

// --- Models ----------------------------------------------------------------------------

type Mix = Partial<Record<Kind, number>>;

interface ModelSpec {
  name: string;
  shape: Shape;
  /** The model name the payloads carry (a dated or tagged alias of the pinned name is fine). */
  payloadModel: string;
  harness: Harness;
  params: { temperature: number; max_tokens: number };
  /** Mix on the first night and on the last (empty: same as the first); nights in between interpolate. */
  mixStart: Mix;
  mixEnd: Mix;
  /** Relative night-to-night wobble of each weight. */
  jitter: number;
  traces: number[];
  severity: SeverityHabit;
  latency: { median: number; sigma: number; drift: number };
  /** How the endpoint mangles arguments: cut off at the token limit, a Python dict, a chat-template tag left in. */
  brokenArgs: "truncated" | "python" | "tag_leak" | "none";
  /** Seconds after midnight UTC that the nightly job starts. */
  startAt: number;
}

const MODELS: ModelSpec[] = [
  {
    // Improving: invents UTC less every night, asks more. The backend stopped defaulting after 11-27.
    name: "tern-7b-instruct",
    shape: "chat",
    payloadModel: "tern-7b-instruct",
    harness: "seed",
    params: { temperature: 0, max_tokens: 512 },
    mixStart: {
      ask: 14,
      ask_both: 2,
      ask_soft: 8,
      drift: 6,
      omit: 10,
      omit_null: 2,
      omit_backend: 4,
      copy: 3,
      inject_bait: 28,
      inject_invented: 8,
      inject_hidden: 2,
      inject_typed: 2,
      ask_and_call: 4,
      multi_call: 3,
      wrong_tool: 2,
      error: 3,
    },
    mixEnd: {
      ask: 42,
      ask_both: 4,
      ask_soft: 6,
      drift: 3,
      omit: 22,
      omit_null: 2,
      omit_backend: 0,
      copy: 1,
      inject_bait: 7,
      inject_invented: 3,
      inject_hidden: 1,
      inject_typed: 0,
      ask_and_call: 4,
      multi_call: 2,
      wrong_tool: 1,
      error: 1,
    },
    jitter: 0.1,
    traces: [118, 124, 120, 131, 126],
    severity: [
      [undefined, 70],
      ["P3", 8],
      ["medium", 14],
      ["high", 8],
    ],
    latency: { median: 680, sigma: 0.32, drift: 0 },
    brokenArgs: "tag_leak",
    startAt: 3600,
  },
  {
    // Stable and good: asks or omits, rarely invents. Its agent loop tracks facts (world_state).
    name: "kestrel-34b",
    shape: "responses",
    payloadModel: "kestrel-34b-2026-11-01",
    harness: "question_mark_per_field",
    params: { temperature: 0.2, max_tokens: 1024 },
    mixStart: {
      ask: 45,
      ask_both: 5,
      ask_soft: 6,
      drift: 3,
      omit: 22,
      omit_null: 2,
      copy: 1,
      inject_bait: 3,
      inject_invented: 1,
      inject_hidden: 1,
      ask_and_call: 3,
      multi_call: 1,
      wrong_tool: 1,
      error: 1,
    },
    mixEnd: {},
    jitter: 0.25,
    traces: [72, 80, 76, 84, 78],
    severity: [
      [undefined, 88],
      ["P3", 3],
      ["medium", 6],
      ["high", 3],
    ],
    latency: { median: 2300, sigma: 0.28, drift: 0 },
    brokenArgs: "truncated",
    startAt: 5400,
  },
  {
    // Flat but leaky: often asks without saying "timezone", and knows Tokyo more often than it should.
    name: "heron-mini",
    shape: "anthropic",
    payloadModel: "heron-mini-2026-11-01",
    harness: "question_mark",
    params: { temperature: 0, max_tokens: 256 },
    mixStart: {
      ask: 22,
      ask_both: 2,
      ask_soft: 16,
      drift: 4,
      omit: 14,
      omit_null: 3,
      narrated_omit: 6,
      copy: 2,
      inject_bait: 8,
      inject_invented: 4,
      inject_hidden: 9,
      inject_typed: 2,
      ask_and_call: 6,
      multi_call: 1,
      wrong_tool: 1,
    },
    mixEnd: {},
    jitter: 0.3,
    traces: [96, 102, 99, 93, 105],
    severity: [
      [undefined, 60],
      ["P3", 24],
      ["medium", 10],
      ["high", 6],
    ],
    latency: { median: 1100, sigma: 0.38, drift: 0 },
    brokenArgs: "none",
    startAt: 7200,
  },
  {
    // Regressing: more invented zones, more fenced and broken calls every night; on the last night
    // the endpoint answered a few requests with another model.
    name: "plover-lite-2",
    shape: "chat",
    payloadModel: "plover-lite-2:q4_K_M",
    harness: "seed",
    params: { temperature: 0.7, max_tokens: 512 },
    mixStart: {
      ask: 30,
      ask_soft: 5,
      drift: 6,
      drift_tz_claim: 1,
      omit: 22,
      omit_null: 2,
      copy: 2,
      inject_bait: 10,
      inject_invented: 4,
      inject_hidden: 1,
      inject_typed: 1,
      ask_and_call: 3,
      multi_call: 2,
      wrong_tool: 2,
      error: 2,
      fenced: 6,
      fenced_broken: 0,
    },
    mixEnd: {
      ask: 8,
      ask_soft: 4,
      drift: 10,
      drift_tz_claim: 3,
      omit: 8,
      omit_null: 1,
      copy: 3,
      inject_bait: 30,
      inject_invented: 9,
      inject_hidden: 1,
      inject_typed: 2,
      ask_and_call: 3,
      multi_call: 3,
      wrong_tool: 4,
      error: 5,
      fenced: 14,
      fenced_broken: 2,
    },
    jitter: 0.1,
    traces: [140, 136, 146, 142, 150],
    severity: [
      [undefined, 55],
      ["P3", 10],
      ["medium", 20],
      ["high", 10],
      ["low", 5],
    ],
    latency: { median: 420, sigma: 0.45, drift: 0.12 },
    brokenArgs: "python",
    startAt: 9000,
  },
];

/** The model some of plover's last-night requests were silently served by. */
const SWAPPED_MODEL = "plover-lite-1.5";

// --- Runs ------------------------------------------------------------------------------

/** Exact counts per kind for n traces: largest remainders of the weighted shares. */
function allocate(weights: [Kind, number][], n: number): Kind[] {
  const total = weights.reduce((s, [, w]) => s + w, 0);
  const exact = weights.map(([k, w]) => ({ k, x: (w / total) * n }));
  const counts = exact.map((e) => ({ k: e.k, n: Math.floor(e.x), r: e.x - Math.floor(e.x) }));
  let left = n - counts.reduce((s, c) => s + c.n, 0);
  for (const c of [...counts].sort((a, b) => b.r - a.r)) {
    if (left-- <= 0) break;
    c.n++;
  }
  return counts.flatMap((c) => Array<Kind>(c.n).fill(c.k));
}

function mixFor(m: ModelSpec, night: number, rng: Rng): [Kind, number][] {
  const t = night / (NIGHTS.length - 1);
  const out: [Kind, number][] = [];
  for (const k of KINDS) {
    const a = m.mixStart[k] ?? 0;
    const b = Object.keys(m.mixEnd).length === 0 ? a : (m.mixEnd[k] ?? 0);
    const w = (a + (b - a) * t) * (1 + m.jitter * (rng.next() * 2 - 1));
    if (w > 0) out.push([k, w]);
  }
  return out;
}

interface Expected {
  run: string;
  id: string;
  kind: Kind;
  expect: Case["expect"];
  truth?: Label;
}

function makeRun(m: ModelSpec, night: number): { lines: string[]; expected: Expected[] } {
  const date = NIGHTS[night];
  const run = `${m.name}/nightly-${date}`;
  const rng = new Rng(run);
  const n = m.traces[night];
  const kinds = rng.shuffle(allocate(mixFor(m, night, rng), n));

  // Kestrel's agent loop: a fact learned from a later turn on nights 2 and 4, a conflict on 3 and 5.
  if (m.name === "kestrel-34b" && night > 0)
    kinds[rng.int(5, n - 5)] = night % 2 === 1 ? "ws_known" : "ws_conflict";

  // Plover's last night: three answers came from another model.
  const swapped = new Set<number>();
  if (m.name === "plover-lite-2" && night === NIGHTS.length - 1) {
    while (swapped.size < 3) swapped.add(rng.int(60, n - 10));
  }

  // Tern's third night was reviewed by hand: the imported labels ride along.
  const reviewed = m.name === "tern-7b-instruct" && night === 2;
  const reviewedKinds = new Map<Kind, number>([
    ["ask_soft", 5],
    ["copy", 3],
    ["inject_bait", 1],
    ["omit", 1],
    ["ask", 1],
  ]);

  let clock = Date.parse(`${date}T00:00:00Z`) + m.startAt * 1000 + rng.int(0, 9000);
  const lines: string[] = [];
  const expected: Expected[] = [];
  kinds.forEach((kind, i) => {
    const c = buildCase(kind, rng, m.severity, m);
    const id = `sw-${String(i + 1).padStart(4, "0")}`;
    const payloadModel = swapped.has(i) ? SWAPPED_MODEL : m.payloadModel;
    const base =
      m.latency.median *
      (1 + m.latency.drift * night) *
      (c.calls.length === 0 ? 0.8 : 1) *
      (c.truncated ? 4 : 1);
    let latency = Math.round(rng.logNormal(base, m.latency.sigma));
    if (rng.chance(0.015)) latency = rng.int(8000, 14000); // a cold start or a queue
    const created = Math.floor(clock / 1000);
    const raw =
      m.shape === "chat"
        ? chatPayload(c, payloadModel, created, rng)
        : m.shape === "responses"
          ? responsesPayload(c, payloadModel, created, m.params.max_tokens, rng)
          : anthropicPayload(c, payloadModel, rng);
    const record: Record<string, unknown> = {
      schema: "assumeprobe/trace@1",
      id,
      run,
      model: m.name,
      probe: "schedule_window",
      raw,
      label: recordedLabel(m.harness, c),
      started_at: new Date(clock).toISOString(),
      latency_ms: latency,
      params: m.params,
    };
    if (c.world_state) record.world_state = c.world_state;
    if (c.side_effect) record.side_effect = c.side_effect;
    const left = reviewedKinds.get(kind) ?? 0;
    if (reviewed && left > 0) {
      reviewedKinds.set(kind, left - 1);
      record.human =
        kind === "ask_soft"
          ? { timezone: "ASK" }
          : { timezone: c.truth ?? c.expect.timezone, severity: c.expect.severity };
    }
    lines.push(JSON.stringify(record));
    const e: Expected = { run, id, kind, expect: c.expect };
    if (c.truth) e.truth = c.truth;
    expected.push(e);
    clock += latency + rng.int(150, 1200);
  });
  return { lines, expected };
}

// --- Main ------------------------------------------------------------------------------

function main(argv: string[]): void {
  const at = argv.indexOf("--expected");
  const expectedFile = at >= 0 ? argv[at + 1] : undefined;
  if (at >= 0 && !expectedFile) {
    process.stderr.write("usage: npx tsx scripts/make-demo.ts [--expected FILE]\n");
    process.exit(2);
  }
  mkdirSync(OUT, { recursive: true });
  for (const f of readdirSync(OUT)) if (f.endsWith(".jsonl")) rmSync(join(OUT, f));

  const allExpected: Expected[] = [];
  let bytes = 0;
  const labels = ["INJECT", "ASK", "DRIFT", "OMIT", "COPY", "ERROR"] as const;
  process.stdout.write(
    `${"run".padEnd(38)} ${"n".padStart(4)}  ${labels.map((l) => l.padStart(6)).join(" ")}\n`,
  );
  for (const m of MODELS) {
    for (let night = 0; night < NIGHTS.length; night++) {
      const { lines, expected } = makeRun(m, night);
      const file = join(OUT, `${m.name}-${NIGHTS[night]}.jsonl`);
      writeFileSync(file, `${lines.join("\n")}\n`);
      bytes += statSync(file).size;
      allExpected.push(...expected);
      const counts = labels.map((l) => expected.filter((e) => e.expect.timezone === l).length);
      const pct = counts.map((c) => `${((100 * c) / expected.length).toFixed(0)}%`.padStart(6));
      process.stdout.write(
        `${expected[0].run.padEnd(38)} ${String(expected.length).padStart(4)}  ${pct.join(" ")}\n`,
      );
    }
  }
  if (expectedFile) writeFileSync(expectedFile, `${allExpected.map((e) => JSON.stringify(e)).join("\n")}\n`);
  process.stdout.write(`${allExpected.length} traces, ${(bytes / 1024).toFixed(0)} KiB in ${OUT}\n`);
}

main(process.argv.slice(2));
