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
import {
  anthropicPayload,
  chatPayload,
  fencedText,
  responsesPayload,
  type Shape,
} from "../lib/generate/payloads";
import {
  type BrokenArgs,
  makeResponse,
  RESPONSE_KINDS,
  type ResponseCase,
  type ResponseKind,
  type SeverityHabit,
} from "../lib/generate/responses";
import { Rng } from "../lib/generate/rng";
import type { Label } from "../lib/probe/schema";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(ROOT, "fixtures", "demo");
const NIGHTS = ["2026-11-25", "2026-11-26", "2026-11-27", "2026-11-28", "2026-11-29"];

// --- Harnesses: what each model's runner recorded --------------------------------------

type Harness = "seed" | "question_mark_per_field" | "question_mark";

const TZ_TERMS = ["timezone", "time zone", "which zone"];

function seenText(c: ResponseCase): string {
  return (c.fence ? fencedText(c) : (c.text ?? "")).toLowerCase();
}

/** The recorded label: usually the rules' answer, wrong in each harness's own way. */
function recordedLabel(h: Harness, c: ResponseCase): string | Record<string, string> {
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

type Mix = Partial<Record<ResponseKind, number>>;

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
  brokenArgs: BrokenArgs;
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
function allocate(weights: [ResponseKind, number][], n: number): ResponseKind[] {
  const total = weights.reduce((s, [, w]) => s + w, 0);
  const exact = weights.map(([k, w]) => ({ k, x: (w / total) * n }));
  const counts = exact.map((e) => ({ k: e.k, n: Math.floor(e.x), r: e.x - Math.floor(e.x) }));
  let left = n - counts.reduce((s, c) => s + c.n, 0);
  for (const c of [...counts].sort((a, b) => b.r - a.r)) {
    if (left-- <= 0) break;
    c.n++;
  }
  return counts.flatMap((c) => Array<ResponseKind>(c.n).fill(c.k));
}

function mixFor(m: ModelSpec, night: number, rng: Rng): [ResponseKind, number][] {
  const t = night / (NIGHTS.length - 1);
  const out: [ResponseKind, number][] = [];
  for (const k of RESPONSE_KINDS) {
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
  kind: ResponseKind;
  expect: ResponseCase["expect"];
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
  const reviewedKinds = new Map<ResponseKind, number>([
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
    const c = makeResponse(kind, rng, m.severity, m.brokenArgs);
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
