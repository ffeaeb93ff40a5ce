import type { Command } from "commander";
import type { IngestSummary } from "../../ingest/pipeline";
import type { Probe } from "../../probe/schema";
import { createChatClient } from "../../runner/chatClient";
import { answerRecord, dashboardLine, defaultRunName, runUrl, sampleWidth } from "../../runner/record";
import { buildChatRequest, type ChatRequest, recordParams } from "../../runner/request";
import { chooseRun, cutTornLine, pendingSamples } from "../../runner/resume";
import { fatalMessage } from "../../runner/retry";
import { runSamples } from "../../runner/runSamples";
import { displayUrl, scrubText } from "../../runner/scrub";
import { RunTally } from "../../runner/tally";
import { cliProbeLookup, cliScoring } from "../db";
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
import { createRunProgress, runSummaryLines } from "../runReport";
import { positiveInt, UsageError } from "../usage";

interface RunOptions {
  probe?: string[];
  model?: string;
  baseUrl?: string;
  samples: number;
  temperature: number;
  maxTokens?: number;
  concurrency: number;
  timeout: number;
  retries: number;
  run?: string;
  out?: string;
  resume?: boolean;
  ingest?: boolean;
  json?: boolean;
  progress: boolean;
}

export function registerRun(program: Command): void {
  program
    .command("run")
    .description(
      "Send probes to an OpenAI-compatible chat-completions endpoint; one trace record per answer.",
    )
    .option("--probe <id...>", "probes to run (repeatable; default: schedule_window)")
    .option("--model <name>", "the model to ask (pinned on the run)")
    .option(
      "--base-url <url>",
      "the API's base URL, e.g. http://127.0.0.1:8080/v1 (default: OPENAI_BASE_URL)",
    )
    .option("--samples <n>", "samples per probe", positiveInt("--samples"), 1)
    .option("--temperature <t>", "sampling temperature", nonNegativeNumber("--temperature"), 0)
    .option("--max-tokens <n>", "max_tokens per answer", positiveInt("--max-tokens"))
    .option("--concurrency <k>", "requests in flight at once (1: serial)", positiveInt("--concurrency"), 1)
    .option("--timeout <s>", "seconds to wait for one whole answer", positiveSeconds("--timeout"), 60)
    .option(
      "--retries <n>",
      "retries per sample on 429, 5xx, timeouts, dropped connections (0-5)",
      retriesOption,
      5,
    )
    .option("--run <name>", "the run's name (default: MODEL/run-YYYYMMDD-HHMMSS)")
    .option("--out <file>", "append records to this file (default: standard output)")
    .option("--resume", "continue the run in --out: ask only the samples it does not hold")
    .option("--ingest", "ingest --out into the dashboard's database when the run ends, and print its link")
    .option("--json", "print the summary as one JSON line (the last line of stdout)")
    .option("--no-progress", "no progress bar, even on a terminal")
    .action(async (opts: RunOptions) => {
      process.exitCode = await runProbes(opts);
    });
}

function resolveProbes(ids: string[]): Probe[] {
  const lookup = cliProbeLookup();
  const seen = new Set<string>();
  const out: Probe[] = [];
  for (const id of ids) {
    if (seen.has(id)) continue;
    seen.add(id);
    const p = lookup(id);
    if (!p) throw new UsageError(`unknown probe "${id}" (--probe); see assumeprobe probes list`);
    out.push(p);
  }
  return out;
}

export async function runProbes(opts: RunOptions): Promise<number> {
  const model = opts.model?.trim();
  if (!model)
    throw new UsageError("--model is required: the model name to ask for (it is pinned on the run)");
  if (opts.run !== undefined && opts.run.trim() === "") throw new UsageError("--run must not be empty");
  if (opts.resume && !opts.out) throw new UsageError("--resume needs --out FILE: the trace file to continue");
  if (opts.ingest && !opts.out) throw new UsageError("--ingest needs --out FILE: the trace file to ingest");
  const baseURL = baseUrlOption(opts.baseUrl);
  const apiKey = apiKeyFromEnv();
  const secrets = secretsOf(apiKey);
  const probes = resolveProbes(opts.probe && opts.probe.length > 0 ? opts.probe : ["schedule_window"]);
  const out = opts.out ?? null;
  const say = (line: string) => process.stderr.write(`${scrubText(line, secrets)}\n`);

  // The run and what it already holds.
  const state = out ? await readOut(out) : null;
  let run = opts.run ?? null;
  let done = new Set<string>();
  if (state && opts.resume) {
    const choice = chooseRun(state, { run: opts.run, model, file: out as string });
    if (!choice.ok) throw new UsageError(choice.error);
    run = choice.run;
    done = choice.done;
  } else if (state && run && state.runs.has(run)) {
    throw new UsageError(
      `${out} already holds run "${run}": continue it with --resume, or name another run with --run`,
    );
  }
  run ??= defaultRunName(model, new Date());
  let needsNewline = state?.needsNewline === true;
  if (state?.cut && opts.resume) {
    // The torn line leaves the file before anything is appended: no later ingest meets it.
    const cut = cutTornLine(out as string, state.cut);
    if (!cut.ok) throw new UsageError(cut.error);
    needsNewline = false;
    say(`assumeprobe: ${out} line ${state.cutLine} was cut off; it is removed and its sample asked again`);
  } else if (state?.cutLine)
    say(
      `assumeprobe: ${out} line ${state.cutLine} was cut off; --resume removes it and asks its sample again`,
    );

  const width = sampleWidth(opts.samples);
  const { pending, skipped } = pendingSamples(
    probes.map((p) => p.id),
    opts.samples,
    width,
    done,
  );
  const byId = new Map(probes.map((p) => [p.id, p]));
  const params = { model, temperature: opts.temperature, maxTokens: opts.maxTokens };
  const bodies = new Map<string, ChatRequest>(probes.map((p) => [p.id, buildChatRequest(p, params)]));
  const paramsOut = recordParams(params);
  const tally = new RunTally((id) => byId.get(id), [...byId.keys()], cliScoring().lexicon);
  tally.skipped = skipped;

  const sink = openOutSink(out, secrets, needsNewline);
  const progress = createRunProgress(
    opts.progress && !opts.json && process.stderr.isTTY === true,
    pending.length,
    tally,
  );
  const client = createChatClient({ baseURL, apiKey, secrets, timeoutMs: opts.timeout * 1000 });
  const interrupt = new AbortController();
  const onSigint = () => interrupt.abort();
  process.once("SIGINT", onSigint);
  process.once("SIGTERM", onSigint);
  const started = performance.now();
  let outcome: Awaited<ReturnType<typeof runSamples>>;
  try {
    outcome = await runSamples(
      pending,
      opts.concurrency,
      client,
      (s) => bodies.get(s.probe) as ChatRequest,
      {
        request: () => {
          tally.requests++;
        },
        answer: (a) => {
          const record = answerRecord({
            id: a.sample.id,
            run: run as string,
            model,
            probe: a.sample.probe,
            raw: a.raw,
            startedAt: a.startedAt,
            latencyMs: a.latencyMs,
            params: paramsOut,
          });
          sink.write(record);
          tally.answer(record);
          progress.update();
        },
        retry: () => {
          tally.retries++;
          progress.update();
        },
        failed: (s, f) => {
          tally.fail(s.id, f);
          progress.update();
        },
      },
      { stop: interrupt.signal, retries: opts.retries },
    );
  } finally {
    process.off("SIGINT", onSigint);
    process.off("SIGTERM", onSigint);
    progress.stop();
    sink.close();
  }
  const seconds = (performance.now() - started) / 1000;
  const stopped = outcome.fatal ? fatalMessage(outcome.fatal, displayUrl(baseURL), model) : undefined;

  let ingest: IngestSummary | undefined;
  let url: string | undefined;
  let onDashboard = false;
  if (opts.ingest && out && !outcome.interrupted) {
    ingest = await ingestTraceFile(out);
    onDashboard = ingest.runs.some((r) => r.name === run);
    if (onDashboard) url = runUrl(run) ?? undefined;
  }

  const summary = {
    run,
    model,
    out,
    seconds,
    tally,
    interrupted: outcome.interrupted,
    ingest,
    dashboard: onDashboard ? dashboardLine(run) : undefined,
  };
  if (opts.json) {
    const line: Record<string, unknown> = {
      run,
      model,
      out,
      answers: tally.answers,
      failed: tally.failed.length,
      skipped: tally.skipped,
      retries: tally.retries,
      requests: tally.requests,
      seconds: Math.round(seconds * 1000) / 1000,
      labels: tally.labels,
      flags: tally.flags,
      failures: tally.failed,
    };
    if (stopped) line.stopped = stopped;
    if (outcome.interrupted) line.interrupted = true;
    if (ingest) {
      const { records, ingested, duplicates, rejected, errors } = ingest;
      line.ingest = { records, ingested, duplicates, rejected, errors };
    }
    if (url) line.url = url;
    if (stopped) say(`assumeprobe: ${stopped}`);
    process.stdout.write(`${scrubText(JSON.stringify(line), secrets)}\n`);
  } else {
    if (stopped) say(`assumeprobe: ${stopped}`);
    const text = `${runSummaryLines(summary).join("\n")}\n`;
    // With records on standard output, the summary goes beside them on stderr.
    if (out) process.stdout.write(scrubText(text, secrets));
    else process.stderr.write(scrubText(text, secrets));
  }
  if (outcome.fatal) return 2;
  if (outcome.interrupted) return 130;
  // DESIGN.md's exit codes are the samples': rejected lines (a line a kill cut off) are listed above.
  if (tally.failed.length > 0) return 1;
  return 0;
}
