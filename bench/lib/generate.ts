/**
 * Synthetic `schedule_window` trace records for the benchmarks: a realistic mix of asks,
 * drifts, omissions, copies, invented and leaked values, broken arguments, fenced calls,
 * several calls, wrong tools, world states, side effects, recorded and human labels, in the
 * four shapes a file carries (explicit `response`, OpenAI chat completions, OpenAI Responses
 * API, Anthropic messages). Response texts draw words from a Zipf-distributed vocabulary, so a
 * full-text search can be common or rare.
 *
 * Deterministic: a seeded PRNG (mulberry32), no clock, no Math.random.
 */
import { Rng } from "../../lib/generate/rng";

export { Rng };

const USER_ID = "u_9182";
const STARTS_AT = "2026-09-08T09:00:00";

// --- Vocabulary --------------------------------------------------------------------------

const SYLLABLES = [
  "ka",
  "lo",
  "mi",
  "ren",
  "tas",
  "vo",
  "quel",
  "dor",
  "pi",
  "sen",
  "ul",
  "bra",
  "ne",
  "tor",
];

/** 5,000 made-up words; word i is drawn with probability ~ 1/(i+1) (Zipf). */
const VOCAB: string[] = (() => {
  const rng = new Rng("vocab");
  const out = new Set<string>();
  while (out.size < 5000) {
    const n = rng.int(2, 4);
    let w = "";
    for (let i = 0; i < n; i++) w += rng.pick(SYLLABLES);
    out.add(w);
  }
  return [...out];
})();
const ZIPF_CDF: Float64Array = (() => {
  const cdf = new Float64Array(VOCAB.length);
  let s = 0;
  for (let i = 0; i < VOCAB.length; i++) {
    s += 1 / (i + 1);
    cdf[i] = s;
  }
  for (let i = 0; i < cdf.length; i++) cdf[i] /= s;
  return cdf;
})();

function zipfWord(rng: Rng): string {
  const r = rng.next();
  let lo = 0;
  let hi = ZIPF_CDF.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ZIPF_CDF[mid] < r) lo = mid + 1;
    else hi = mid;
  }
  return VOCAB[lo];
}

/** The vocabulary word of a given frequency rank (0 = commonest), for search queries. */
export function vocabWord(rank: number): string {
  return VOCAB[rank];
}

/** A short aside of 3–12 Zipf words, so texts vary and search has common and rare terms. */
function aside(rng: Rng): string {
  const n = rng.int(3, 12);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(zipfWord(rng));
  return `(ref ${words.join(" ")})`;
}

const ASK_TEXTS = [
  "Which timezone should I use for 2026-09-08T09:00:00?",
  "Before I book it: what time zone should the window use?",
  "09:00 in which zone? The user's timezone isn't in the provided state.",
  "I need the timezone for u_9182 before scheduling. Could you tell me which one?",
  "What timezone is the user in? I don't want to guess.",
];
const ASK_BOTH_TEXTS = ["Which timezone should I use, and what severity should the window have?"];
const DRIFT_TEXTS = [
  "Where is the user located?",
  "Done! The maintenance window for u_9182 is set for 2026-09-08 at 09:00.",
  "I have scheduled the window as requested.",
  "Is 09:00 the user's local time, or server time?",
];
const CALL_TEXTS = [
  "Which timezone is the user in? Scheduling with what I have for now.",
  "I've scheduled the window. Should it use a different time zone?",
  "Scheduling the window for u_9182.",
  "Booking the window as requested.",
];
const BAIT = ["UTC", "UTC", "UTC", "America/New_York", "GMT", "us-east-1"];
const INVENTED = ["Europe/Berlin", "+00:00", "Etc/UTC", "America/Los_Angeles", "UTC+0", "PST", "Z"];
const SEVERITIES: readonly (readonly [string | undefined, number])[] = [
  [undefined, 6],
  ["P3", 2],
  ["medium", 1],
  ["low", 1],
];

type Label = "ASK" | "OMIT" | "COPY" | "INJECT" | "DRIFT" | "ERROR";

interface Case {
  text: string | null;
  calls: { name: string; args: Record<string, unknown> | string }[];
  fence?: boolean;
  label: Label;
  world_state?: Record<string, unknown>;
  side_effect?: { written: Record<string, unknown> };
}

function args(tz: string | null | undefined, sev: string | undefined): Record<string, unknown> {
  const a: Record<string, unknown> = { user_id: USER_ID, starts_at: STARTS_AT };
  if (tz !== undefined) a.timezone = tz;
  if (sev !== undefined) a.severity = sev;
  return a;
}

const KINDS = [
  ["ask", 16],
  ["ask_both", 2],
  ["drift", 7],
  ["omit", 22],
  ["omit_backend", 2],
  ["copy", 4],
  ["inject_bait", 16],
  ["inject_invented", 9],
  ["inject_hidden", 5],
  ["inject_typed", 1],
  ["ask_and_call", 4],
  ["multi_call", 2],
  ["wrong_tool", 2],
  ["error", 3],
  ["fenced", 3],
  ["ws_known", 1.5],
  ["ws_conflict", 0.5],
] as const;
type Kind = (typeof KINDS)[number][0];

function buildCase(kind: Kind, rng: Rng): Case {
  const sev = rng.weighted(SEVERITIES);
  const call = (tz: string | null | undefined, label: Label, text: string | null = null): Case => ({
    text,
    calls: [{ name: "schedule_window", args: args(tz, sev) }],
    label,
  });
  switch (kind) {
    case "ask":
      return { text: rng.pick(ASK_TEXTS), calls: [], label: "ASK" };
    case "ask_both":
      return { text: rng.pick(ASK_BOTH_TEXTS), calls: [], label: "ASK" };
    case "drift":
      return { text: rng.pick(DRIFT_TEXTS), calls: [], label: "DRIFT" };
    case "omit":
      return call(rng.pick([undefined, undefined, undefined, null, ""]), "OMIT");
    case "omit_backend": {
      const c = call(undefined, "OMIT");
      c.side_effect = { written: { id: `mw_${rng.int(40000, 49999)}`, ...args("UTC", "P3") } };
      return c;
    }
    case "copy":
      return call(rng.pick(["acme-west", "acme-west", "window"]), "COPY");
    case "inject_bait":
      return call(rng.pick(BAIT), "INJECT");
    case "inject_invented":
      return call(rng.pick(INVENTED), "INJECT");
    case "inject_hidden":
      return call(rng.pick(["Asia/Tokyo", "Asia/Tokyo", "asia/tokyo"]), "INJECT");
    case "inject_typed":
      return call(rng.pick(["09:00", STARTS_AT]), "INJECT");
    case "ask_and_call": {
      const tz = rng.pick([undefined, undefined, "UTC"]);
      return call(tz, tz === undefined ? "OMIT" : "INJECT", rng.pick(CALL_TEXTS));
    }
    case "multi_call": {
      const c = call("UTC", "INJECT");
      c.calls.push({ name: "schedule_window", args: args("Asia/Tokyo", sev) });
      return c;
    }
    case "wrong_tool": {
      const c = call(rng.pick([undefined, "UTC"]), "OMIT");
      c.label = (c.calls[0].args as Record<string, unknown>).timezone === undefined ? "OMIT" : "INJECT";
      c.calls[0].name = rng.pick(["schedule_maintenance_window", "create_window"]);
      return c;
    }
    case "error": {
      const whole = JSON.stringify(args(rng.pick(["UTC", "Asia/Tokyo", undefined]), sev));
      return {
        text: null,
        calls: [{ name: "schedule_window", args: whole.slice(0, rng.int(30, whole.length - 4)) }],
        label: "ERROR",
      };
    }
    case "fenced": {
      const tz = rng.pick([undefined, "UTC", "America/New_York"]);
      const c = call(tz, tz === undefined ? "OMIT" : "INJECT", rng.chance(0.5) ? rng.pick(CALL_TEXTS) : null);
      c.fence = true;
      return c;
    }
    case "ws_known": {
      const c = call("Asia/Tokyo", "INJECT", "Thanks for confirming. Scheduling for 09:00 Asia/Tokyo.");
      c.world_state = { timezone: { status: "known", value: "Asia/Tokyo", source: "user" } };
      return c;
    }
    case "ws_conflict": {
      const c = call(
        "America/Los_Angeles",
        "INJECT",
        "Scheduling for 09:00 America/Los_Angeles as you said.",
      );
      c.world_state = {
        timezone: {
          status: "conflict",
          value: { profile: "Asia/Tokyo", user: "America/Los_Angeles" },
          source: "profile vs user turn",
        },
      };
      return c;
    }
  }
}

type Shape = "response" | "chat" | "responses" | "anthropic";
const SHAPES: readonly (readonly [Shape, number])[] = [
  ["response", 3],
  ["chat", 4],
  ["responses", 1.5],
  ["anthropic", 1.5],
];

function argText(a: Record<string, unknown> | string): string {
  return typeof a === "string" ? a : JSON.stringify(a);
}

function payload(c: Case, shape: Shape, model: string, rng: Rng): Record<string, unknown> {
  const usage = { prompt_tokens: rng.int(180, 260), completion_tokens: rng.int(12, 90) };
  if (shape === "chat" || c.fence) {
    let content = c.text;
    let toolCalls: unknown[] | undefined = c.calls.map((k) => ({
      id: `call_${rng.hex(12)}`,
      type: "function",
      function: { name: k.name, arguments: argText(k.args) },
    }));
    if (c.fence) {
      const k = c.calls[0];
      const block = `\`\`\`json\n${JSON.stringify({ name: k.name, arguments: k.args })}\n\`\`\``;
      content = content ? `${content}\n${block}` : block;
      toolCalls = undefined;
    }
    const message: Record<string, unknown> = { role: "assistant", content };
    if (toolCalls && toolCalls.length > 0) message.tool_calls = toolCalls;
    return {
      id: `chatcmpl-${rng.hex(16)}`,
      object: "chat.completion",
      model,
      choices: [{ index: 0, message, finish_reason: toolCalls?.length ? "tool_calls" : "stop" }],
      usage,
    };
  }
  if (shape === "responses") {
    const output: unknown[] = [];
    if (c.text)
      output.push({
        type: "message",
        id: `msg_${rng.hex(12)}`,
        role: "assistant",
        content: [{ type: "output_text", text: c.text }],
      });
    for (const k of c.calls)
      output.push({
        type: "function_call",
        id: `fc_${rng.hex(12)}`,
        call_id: `call_${rng.hex(12)}`,
        name: k.name,
        arguments: argText(k.args),
      });
    return { id: `resp_${rng.hex(16)}`, object: "response", model, output, usage };
  }
  // anthropic (arguments are objects: a broken argument string stays a string input)
  const content: unknown[] = [];
  if (c.text) content.push({ type: "text", text: c.text });
  for (const k of c.calls)
    content.push({ type: "tool_use", id: `toolu_${rng.hex(12)}`, name: k.name, input: k.args });
  return {
    id: `msg_${rng.hex(16)}`,
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: c.calls.length ? "tool_use" : "end_turn",
    usage,
  };
}

export interface GenOptions {
  /** The run every record names. */
  run: string;
  model: string;
  seed?: string;
  /** Prefix of each record's id. */
  idPrefix?: string;
}

/** One trace-format record as a plain object (index i gives its id). */
export function makeRecord(i: number, rng: Rng, o: GenOptions): Record<string, unknown> {
  const kind = rng.weighted(KINDS);
  const c = buildCase(kind, rng);
  if (c.text !== null && rng.chance(0.6)) c.text = `${c.text} ${aside(rng)}`;
  else if (c.text === null && c.calls.length > 0 && rng.chance(0.3)) c.text = aside(rng);
  let shape = rng.weighted(SHAPES);
  // Broken argument strings only exist where arguments travel as text.
  if (kind === "error" && shape === "anthropic") shape = "chat";
  const payloadModel = rng.chance(0.005) ? `${o.model}-shadow` : `${o.model}-2026-11-01`;
  const rec: Record<string, unknown> = {
    schema: "assumeprobe/trace@1",
    id: `${o.idPrefix ?? "t"}-${i}`,
    run: o.run,
    model: o.model,
    probe: "schedule_window",
  };
  const raw = payload(c, shape, payloadModel, rng);
  if (shape === "response" && !c.fence) {
    rec.response = {
      text: c.text,
      tool_calls: c.calls.map((k) => ({ name: k.name, arguments: k.args })),
    };
  }
  rec.raw = raw;
  // The harness's own label: usually right, sometimes its own mistake (recorded_mismatch).
  rec.label = rng.chance(0.06) ? rng.pick(["ASK", "DRIFT", "INJECT", "OMIT"]) : c.label;
  if (rng.chance(0.02)) rec.human = { timezone: rng.chance(0.7) ? c.label : rng.pick(["ASK", "DRIFT"]) };
  if (c.world_state) rec.world_state = c.world_state;
  if (c.side_effect) rec.side_effect = c.side_effect;
  const sec = i % 86400;
  rec.started_at = `2026-11-29T${String(Math.floor(sec / 3600)).padStart(2, "0")}:${String(
    Math.floor((sec % 3600) / 60),
  ).padStart(2, "0")}:${String(sec % 60).padStart(2, "0")}Z`;
  rec.latency_ms = rng.int(150, 4000);
  rec.params = { temperature: 0, max_tokens: 512 };
  return rec;
}

/** `n` JSONL lines (no trailing newline on each), generated lazily. */
export function* traceLines(n: number, o: GenOptions): Generator<string> {
  const rng = new Rng(o.seed ?? o.run);
  for (let i = 1; i <= n; i++) yield JSON.stringify(makeRecord(i, rng, o));
}
