/**
 * Synthetic `schedule_window` trace records for the benchmarks: the demo data's responses
 * (`lib/generate`: asks, drifts, omissions, copies, invented and leaked values, broken arguments,
 * fenced calls, several calls, wrong tools, world states, side effects) in one mix over one night,
 * with recorded and human labels, in the four shapes a file carries (explicit `response`, OpenAI
 * chat completions, OpenAI Responses API, Anthropic messages). Response texts carry asides drawn
 * from a Zipf-distributed vocabulary, so a full-text search can be common or rare.
 *
 * Deterministic: a seeded PRNG (mulberry32), no clock, no Math.random.
 */
import { anthropicPayload, chatPayload, responsesPayload } from "../../lib/generate/payloads";
import { makeResponse, type ResponseKind, type SeverityHabit } from "../../lib/generate/responses";
import { Rng } from "../../lib/generate/rng";

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

/** How often each kind of response comes, across the benchmark's one model. */
const KINDS: readonly (readonly [ResponseKind, number])[] = [
  ["ask", 16],
  ["ask_both", 2],
  ["ask_soft", 3.5],
  ["drift", 3.5],
  ["omit", 13],
  ["omit_null", 9],
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
];
const SEVERITIES: SeverityHabit = [
  [undefined, 6],
  ["P3", 2],
  ["medium", 1],
  ["low", 1],
];

/** `response`: the record gives the response itself (the raw payload rides along). */
type Shape = "response" | "chat" | "responses" | "anthropic";
const SHAPES: readonly (readonly [Shape, number])[] = [
  ["response", 3],
  ["chat", 4],
  ["responses", 1.5],
  ["anthropic", 1.5],
];
const MAX_TOKENS = 512;

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
  const c = makeResponse(kind, rng, SEVERITIES, "none");
  if (c.text !== null && rng.chance(0.6)) c.text = `${c.text} ${aside(rng)}`;
  else if (c.text === null && c.calls.length > 0 && rng.chance(0.3)) c.text = aside(rng);
  let shape = rng.weighted(SHAPES);
  // A fenced call is text in a chat message; broken argument strings only travel as text.
  if (c.fence || (kind === "error" && shape === "anthropic")) shape = "chat";
  const payloadModel = rng.chance(0.005) ? `${o.model}-shadow` : `${o.model}-2026-11-01`;
  const sec = i % 86400;
  const startedAt = `2026-11-29T${String(Math.floor(sec / 3600)).padStart(2, "0")}:${String(
    Math.floor((sec % 3600) / 60),
  ).padStart(2, "0")}:${String(sec % 60).padStart(2, "0")}Z`;
  const created = Math.floor(Date.parse(startedAt) / 1000);
  const rec: Record<string, unknown> = {
    schema: "assumeprobe/trace@1",
    id: `${o.idPrefix ?? "t"}-${i}`,
    run: o.run,
    model: o.model,
    probe: "schedule_window",
  };
  if (shape === "response") {
    rec.response = {
      text: c.text,
      tool_calls: c.calls.map((k) => ({ name: k.name, arguments: k.args })),
    };
  }
  rec.raw =
    shape === "chat"
      ? chatPayload(c, payloadModel, created, rng)
      : shape === "responses"
        ? responsesPayload(c, payloadModel, created, MAX_TOKENS, rng)
        : anthropicPayload(c, payloadModel, rng);
  // The harness's own label: usually right, sometimes its own mistake (recorded_mismatch).
  const ours = c.expect.timezone;
  rec.label = rng.chance(0.06) ? rng.pick(["ASK", "DRIFT", "INJECT", "OMIT"]) : ours;
  if (rng.chance(0.02))
    rec.human = { timezone: rng.chance(0.7) ? (c.truth ?? ours) : rng.pick(["ASK", "DRIFT"]) };
  if (c.world_state) rec.world_state = c.world_state;
  if (c.side_effect) rec.side_effect = c.side_effect;
  rec.started_at = startedAt;
  rec.latency_ms = rng.int(150, 4000);
  rec.params = { temperature: 0, max_tokens: MAX_TOKENS };
  return rec;
}

/** `n` JSONL lines (no trailing newline on each), generated lazily. */
export function* traceLines(n: number, o: GenOptions): Generator<string> {
  const rng = new Rng(o.seed ?? o.run);
  for (let i = 1; i <= n; i++) yield JSON.stringify(makeRecord(i, rng, o));
}
