import type { Command } from "commander";
import { isObject } from "../../isObject";
import { builtinProbes } from "../../probe/builtin";
import { createChatClient } from "../../runner/chatClient";
import { FUZZ_NAMES, FUZZ_PROMPT, generateBlobs } from "../../runner/fuzzBlobs";
import {
  countOutcome,
  emptyCounts,
  type FuzzCounts,
  fuzzBlob,
  fuzzRecord,
  type GateFactory,
  realGate,
} from "../../runner/fuzzGate";
import { dashboardLine, defaultRunName, runUrl, sampleId, sampleWidth } from "../../runner/record";
import type { ChatRequest } from "../../runner/request";
import { fatalMessage } from "../../runner/retry";
import { runSamples } from "../../runner/runSamples";
import { displayUrl, scrubText } from "../../runner/scrub";
import {
  apiKeyFromEnv,
  baseUrlOption,
  nonNegativeNumber,
  openOutSink,
  positiveSeconds,
  readOut,
  retriesOption,
  secretsOf,
} from "../endpointOptions";
import { ingestTraceFile } from "../ingestFile";
import { positiveInt, UsageError } from "../usage";

export interface FuzzOptions {
  baseUrl?: string;
  model?: string;
  offline?: boolean;
  seed: number;
  n: number;
  temperature?: number;
  timeout: number;
  retries: number;
  concurrency: number;
  run?: string;
  out?: string;
  ingest?: boolean;
  json?: boolean;
}

/** The model name offline runs are pinned to. */
export const OFFLINE_MODEL = "offline-fuzzer";

function nonNegativeInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0)
      throw new UsageError(`${name} must be an integer of 0 or more, got "${value}"`);
    return n;
  };
}

export function registerFuzzGate(program: Command): void {
  program
    .command("fuzz-gate")
    .description(
      "Feed sloppy world-state JSON through book_slot's gate with a fake calendar; exit 1 on a leak.",
    )
    .option("--offline", "generate the blobs from --seed instead of asking a model")
    .option("--seed <n>", "the offline generator's seed", nonNegativeInt("--seed"), 1)
    .option("--base-url <url>", "the API's base URL (default: OPENAI_BASE_URL)")
    .option("--model <name>", "the model to ask for blobs")
    .option("--n <n>", "how many blobs", positiveInt("--n"), 20)
    .option(
      "--temperature <t>",
      "sampling temperature (default: the server's)",
      nonNegativeNumber("--temperature"),
    )
    .option("--timeout <s>", "seconds to wait for one whole answer", positiveSeconds("--timeout"), 60)
    .option("--concurrency <k>", "requests in flight at once", positiveInt("--concurrency"), 1)
    .option(
      "--retries <n>",
      "retries per request on 429, 5xx, timeouts, dropped connections (0-5)",
      retriesOption,
      5,
    )
    .option("--run <name>", "the run's name (default: offline-fuzzer/seed-N, or MODEL/fuzz-YYYYMMDD-HHMMSS)")
    .option("--out <file>", "append one record per blob to this file (default: standard output)")
    .option("--ingest", "ingest --out into the dashboard's database at the end, and print its link")
    .option("--json", "print the counts as one JSON line (the last line of stdout)")
    .action(async (opts: FuzzOptions) => {
      process.exitCode = await runFuzzGate(opts);
    });
}

/** The text of a chat completion's first choice (what the model returned as the blob). */
export function completionText(raw: unknown): string {
  if (typeof raw === "string") return raw;
  if (!isObject(raw) || !Array.isArray(raw.choices)) return "";
  const msg = isObject(raw.choices[0]) ? raw.choices[0].message : undefined;
  if (!isObject(msg)) return "";
  if (typeof msg.content === "string") return msg.content;
  if (Array.isArray(msg.content))
    return msg.content.map((p) => (isObject(p) && typeof p.text === "string" ? p.text : "")).join("");
  return "";
}

/** `gate` is the real one; a test hands in a broken double to see the leak caught and exit 1. */
export async function runFuzzGate(opts: FuzzOptions, gate: GateFactory = realGate): Promise<number> {
  const online = opts.baseUrl !== undefined || opts.model !== undefined;
  if (opts.offline && online)
    throw new UsageError("use either --offline or --base-url and --model, not both");
  if (!opts.offline && !opts.model?.trim())
    throw new UsageError("give --model (and --base-url, or OPENAI_BASE_URL) to ask a model, or --offline");
  if (opts.ingest && !opts.out) throw new UsageError("--ingest needs --out FILE: the trace file to ingest");
  if (opts.run !== undefined && opts.run.trim() === "") throw new UsageError("--run must not be empty");
  const probe = builtinProbes().get("book_slot");
  if (!probe) throw new Error("book_slot is missing from the built-in probes");
  const requires = probe.requires;
  const model = opts.offline ? OFFLINE_MODEL : (opts.model as string).trim();
  const run =
    opts.run ??
    (opts.offline
      ? `${OFFLINE_MODEL}/seed-${opts.seed}`
      : defaultRunName(model, new Date()).replace("/run-", "/fuzz-"));
  const out = opts.out ?? null;
  const apiKey = opts.offline ? "" : apiKeyFromEnv();
  const secrets = opts.offline ? [] : secretsOf(apiKey);
  const say = (line: string) => process.stderr.write(`${scrubText(line, secrets)}\n`);
  const state = out ? await readOut(out) : null;
  if (state?.runs.has(run))
    say(
      `assumeprobe: ${out} already holds run "${run}"; its records are written again (ingest counts them once)`,
    );
  const sink = openOutSink(out, secrets, state?.needsNewline === true);
  const counts: FuzzCounts = emptyCounts();
  const width = sampleWidth(opts.n);
  const leaked: string[] = [];
  let failed = 0;
  let stopped: string | undefined;

  const handle = (i: number, blob: string, extra: { kind?: string; raw?: unknown; startedAt?: Date }) => {
    const outcome = fuzzBlob(blob, requires, FUZZ_NAMES, gate);
    countOutcome(counts, outcome);
    const id = sampleId("book_slot", i, width);
    if (outcome.leaks.length > 0)
      leaked.push(`${id}: ${outcome.leaks.join("; ")} (blob ${JSON.stringify(blob).slice(0, 200)})`);
    if (outcome.verdict === "crashed") leaked.push(`${id}: the gate crashed: ${outcome.reason}`);
    sink.write(
      fuzzRecord({ id, run, model, blob, outcome, seed: opts.offline ? opts.seed : undefined, ...extra }),
    );
  };

  try {
    if (opts.offline) {
      let i = 0;
      for (const b of generateBlobs(opts.seed, opts.n)) handle(++i, b.text, { kind: b.kind });
    } else {
      const baseURL = baseUrlOption(opts.baseUrl);
      const client = createChatClient({ baseURL, apiKey, secrets, timeoutMs: opts.timeout * 1000 });
      const body: ChatRequest = { model, messages: [{ role: "user", content: FUZZ_PROMPT }] };
      if (opts.temperature !== undefined) body.temperature = opts.temperature;
      const samples = Array.from({ length: opts.n }, (_, k) => ({
        probe: "book_slot",
        sample: k + 1,
        id: sampleId("book_slot", k + 1, width),
      }));
      const outcome = await runSamples(
        samples,
        opts.concurrency,
        client,
        () => body,
        {
          answer: (a) =>
            handle(a.sample.sample, completionText(a.raw), { raw: a.raw, startedAt: a.startedAt }),
          retry: () => {},
          failed: (s, f) => {
            failed++;
            say(`assumeprobe: ${s.id}: no blob after retries: ${f.message}`);
          },
        },
        { retries: opts.retries },
      );
      if (outcome.fatal) stopped = fatalMessage(outcome.fatal, displayUrl(baseURL), model);
    }
  } finally {
    sink.close();
  }

  for (const l of leaked) say(`assumeprobe: LEAK ${l}`);
  if (stopped) say(`assumeprobe: ${stopped}`);
  const ingest = opts.ingest && out ? await ingestTraceFile(out) : undefined;
  const onDashboard = ingest?.runs.some((r) => r.name === run) === true;
  const url = onDashboard ? runUrl(run) : null;
  const { skip_reasons, ...main } = counts;
  if (opts.json) {
    const line: Record<string, unknown> = { ...main, skip_reasons, run, model };
    if (!opts.offline) line.failed = failed;
    if (ingest)
      line.ingest = { records: ingest.records, ingested: ingest.ingested, rejected: ingest.rejected };
    if (url) line.url = url;
    process.stdout.write(`${JSON.stringify(line)}\n`);
  } else {
    const skips = Object.entries(skip_reasons)
      .map(([k, n]) => `${k} ${n}`)
      .join(", ");
    const lines = [
      `fuzz-gate ${run}: ${counts.blobs} blobs: ${counts.blocked} blocked, ${counts.booked} booked, ${counts.skipped} skipped${skips ? ` (${skips})` : ""}, ${counts.leaks} leaks${counts.crashed ? `, ${counts.crashed} crashed` : ""}${failed ? `; ${failed} requests failed` : ""}${out ? ` → ${out}` : ""}`,
      counts.leaks > 0
        ? "the gate LEAKED: a booking went through without fully known facts"
        : "no leaks: every booking had its required facts known",
    ];
    if (ingest)
      lines.push(`ingested: ${ingest.records} records, ${ingest.ingested} new, ${ingest.rejected} rejected`);
    if (onDashboard) lines.push(dashboardLine(run));
    (out ? process.stdout : process.stderr).write(`${lines.join("\n")}\n`);
  }
  if (stopped) return 2;
  return counts.leaks > 0 || counts.crashed > 0 || failed > 0 ? 1 : 0;
}
