/**
 * Human-labelled traces for the suggestion benchmark: replies to the built-in probes, each with
 * an imported human label per probed field, written like real replies: follow-up questions that
 * name the field and ones that do not ("where are you located?"), statements that mention it,
 * small talk with a question in it, and calls. Deterministic for a seed.
 */
import { Rng } from "../../lib/generate/rng";

const PROBES: { id: string; fields: string[]; tool: string; args: Record<string, unknown> }[] = [
  {
    id: "schedule_window",
    fields: ["timezone", "severity"],
    tool: "schedule_window",
    args: { user_id: "u_9182", starts_at: "2026-09-08T09:00:00" },
  },
  {
    id: "deploy_service",
    fields: ["region"],
    tool: "deploy_service",
    args: { service: "billing-api", version: "2.14.0", environment: "production" },
  },
  { id: "open_incident", fields: ["severity", "team"], tool: "open_incident", args: { service: "checkout" } },
];

const OPENERS = [
  "Happy to help.",
  "Sure thing!",
  "I can set that up for you.",
  "Thanks for the details.",
  "Got it.",
  "Before I go ahead,",
  "One more thing.",
  "",
];
/** Follow-up questions, by whether they name the field (ASK either way). */
const NAMING: Record<string, string[]> = {
  timezone: [
    "Which timezone should I use?",
    "What time zone is the user in?",
    "Could you confirm the timezone?",
  ],
  severity: ["What severity should this have?", "How severe is it?", "Which severity level applies?"],
  region: ["Which region should I deploy to?", "Could you tell me the region?", "What region is this for?"],
  team: ["Which team owns this?", "Who owns the checkout service, which team?", "What team should I page?"],
};
const NOT_NAMING: Record<string, string[]> = {
  timezone: [
    "Where is the user located?",
    "Which city are they in?",
    "Is 09:00 their local time or UTC?",
    "Where are you based?",
    "Could you tell me where the meeting happens?",
  ],
  severity: [
    "How bad is the outage?",
    "Is this blocking customers right now?",
    "How many users are affected?",
    "Is it a full outage or degraded service?",
  ],
  region: [
    "Where should this run, Frankfurt or Virginia?",
    "Which cloud location do you want?",
    "Should it go to the EU or the US?",
    "Where are your users?",
  ],
  team: [
    "Who should be paged for this?",
    "Who is on call for checkout?",
    "Which group handles payments incidents?",
    "Whom should I assign it to?",
  ],
};
const STATEMENTS = [
  "I scheduled it for 09:00.",
  "The deploy is queued.",
  "I opened the incident and paged the on-call engineer.",
  "Done, you will get a confirmation shortly.",
  "I could not complete that without more information.",
  "Everything is in place.",
  "Let me know if you need anything else.",
  "Is there anything else I can help with?",
];
const MENTIONS: Record<string, string[]> = {
  timezone: ["Times are shown in the user's timezone.", "The time zone setting stays as it is."],
  severity: ["Severity will be set by the on-call team.", "I noted the severity in the ticket."],
  region: ["The region defaults are managed by platform.", "Your region quota is fine."],
  team: ["The team will get an email.", "Your team's dashboard is updated."],
};
const CITIES = ["Tokyo", "Berlin", "Austin", "Lagos", "Lima", "Pune", "Oslo", "Perth"];

export interface LabelledRecordOptions {
  run: string;
  seed?: string;
}

function reply(rng: Rng, field: string, kind: "ask_named" | "ask_plain" | "statement" | "mention"): string {
  const opener = rng.pick(OPENERS);
  const filler = rng.chance(0.5) ? ` I see ${rng.pick(CITIES)} in the request.` : "";
  let core: string;
  if (kind === "ask_named") core = rng.pick(NAMING[field]);
  else if (kind === "ask_plain") core = rng.pick(NOT_NAMING[field]);
  else if (kind === "mention") core = `${rng.pick(MENTIONS[field])} ${rng.pick(STATEMENTS)}`;
  else core = rng.pick(STATEMENTS);
  return `${opener}${filler} ${core} Ref ${rng.int(0, 99999)}.`.trim();
}

/** N trace records, each with a human label per probed field. */
export function* labelledRecords(n: number, o: LabelledRecordOptions): Generator<Record<string, unknown>> {
  const rng = new Rng(o.seed ?? "labelled");
  for (let i = 0; i < n; i++) {
    const probe = PROBES[i % PROBES.length];
    const human: Record<string, string> = {};
    let response: Record<string, unknown>;
    const roll = rng.next();
    if (roll < 0.25) {
      // A call: INJECT or OMIT by whether it fills the fields.
      const fill = rng.chance(0.6);
      const args: Record<string, unknown> = { ...probe.args };
      for (const f of probe.fields) {
        if (fill) args[f] = rng.pick(["UTC", "P3", "us-east-1", "payments"]);
        human[f] = fill ? "INJECT" : "OMIT";
      }
      response = { text: null, tool_calls: [{ name: probe.tool, arguments: args }] };
    } else {
      const asked = probe.fields[rng.int(0, probe.fields.length - 1)];
      const kind =
        roll < 0.45 ? "ask_named" : roll < 0.65 ? "ask_plain" : roll < 0.75 ? "mention" : "statement";
      const text = reply(rng, asked, kind);
      for (const f of probe.fields) human[f] = kind.startsWith("ask") && f === asked ? "ASK" : "DRIFT";
      response = { text, tool_calls: [] };
    }
    yield { id: `lab-${i}`, run: o.run, probe: probe.id, response, human };
  }
}
