import type { Command } from "commander";
import { createIngestStore } from "../../../db/queries/ingestStore";
import { getProbe } from "../../../db/queries/probes";
import { createThreadedIngestStore } from "../../../db/queries/threadedIngestStore";
import { FORMAT_CHOICES } from "../../formats/detect";
import { describeFailure, type IngestFormat, type IngestSource, ingestSources } from "../../ingest/pipeline";
import { checkReadable, openSource, SourceError, sourceName, sourceSize } from "../../ingest/readSource";
import { DEFAULT_MAX_RECORD_BYTES } from "../../ingest/splitRecords";
import { DEFAULT_PROBE_ID } from "../../probe/builtin";
import { cliDb } from "../db";
import { createProgressReporter, printSummary } from "../ingestReport";
import { positiveInt, UsageError } from "../usage";

interface IngestOptions {
  probe?: string;
  model?: string;
  run?: string;
  format: string;
  json?: boolean;
  maxRecordBytes: number;
  progress: boolean;
}

const FORMATS: readonly IngestFormat[] = FORMAT_CHOICES;

export function registerIngest(program: Command): void {
  program
    .command("ingest")
    .description(
      "Store traces (JSONL trace records, OTLP JSON, Phoenix spans, promptfoo results, Inspect AI .eval/.json logs; gzip accepted, - for stdin) in the database, scored.",
    )
    .argument("<files...>", "trace files")
    .option("--probe <id>", "probe for records that name none (default: schedule_window)")
    .option("--model <name>", "model for records that name none (default: unknown)")
    .option("--run <name>", "run for records that name none (default: the file's name)")
    .option("--format <format>", `${FORMATS.join(", ")} (auto: told from the content)`, "auto")
    .option("--json", "print the summary as one JSON line (the last line of stdout)")
    .option(
      "--max-record-bytes <n>",
      "reject larger records",
      positiveInt("--max-record-bytes"),
      DEFAULT_MAX_RECORD_BYTES,
    )
    .option("--no-progress", "no progress bar, even on a terminal")
    .action(async (files: string[], opts: IngestOptions) => {
      process.exitCode = await runIngest(files, opts);
    });
}

export async function runIngest(files: string[], opts: IngestOptions): Promise<number> {
  if (!FORMATS.includes(opts.format as IngestFormat)) {
    throw new UsageError(`--format must be one of ${FORMATS.join(", ")}, got "${opts.format}"`);
  }
  if (files.filter((f) => f === "-").length > 1) throw new UsageError("standard input (-) can be named once");
  if (opts.run !== undefined && opts.run.trim() === "") throw new UsageError("--run must not be empty");
  if (opts.model !== undefined && opts.model.trim() === "") throw new UsageError("--model must not be empty");
  for (const f of files) {
    try {
      checkReadable(f);
    } catch (e) {
      if (e instanceof SourceError) throw new UsageError(e.message);
      throw e;
    }
  }
  const db = cliDb();
  const probe = opts.probe ?? DEFAULT_PROBE_ID;
  if (!getProbe(db, probe))
    throw new UsageError(`unknown probe "${probe}" (--probe); see assumeprobe probes list`);

  const sources: IngestSource[] = files.map((f) => ({
    // Reports name standard input as its source name does.
    file: f === "-" ? "stdin" : f,
    name: sourceName(f),
    // A zip (an Inspect .eval log) is read in place; standard input's is spooled first.
    ...(f === "-" ? {} : { path: f }),
    get stream() {
      return openSource(f);
    },
    size: sourceSize(f) ?? undefined,
  }));
  const started = performance.now();
  const reporter = createProgressReporter(opts.progress && !opts.json && process.stderr.isTTY === true);
  // Writes on a second thread, so reading and scoring overlap with SQLite (ASSUMEPROBE_INGEST_THREAD=0: one thread).
  const threaded = createThreadedIngestStore(db);
  const store = threaded ?? createIngestStore(db);
  let ingestId: number | undefined;
  let summary: Awaited<ReturnType<typeof ingestSources>>;
  try {
    summary = await ingestSources(
      sources,
      {
        probe,
        probeGiven: opts.probe !== undefined,
        model: opts.model,
        run: opts.run,
        format: opts.format as IngestFormat,
        maxRecordBytes: opts.maxRecordBytes,
        origin: "cli",
      },
      {
        ...store,
        beginBatch(origin, names) {
          ingestId = store.beginBatch(origin, names);
          return ingestId;
        },
      },
      reporter.update,
    );
  } catch (e) {
    // The database refused a write: the batches before it are stored, nothing after it is tried.
    reporter.stop();
    process.stderr.write(
      `assumeprobe: ingest stopped: ${(e as Error).message}; the batches written before it were kept${ingestId === undefined ? "" : ` (ingest #${ingestId} on /ingests)`}\n`,
    );
    return 2;
  } finally {
    reporter.stop();
    await threaded?.close();
  }
  db.sqlite.pragma("optimize");
  printSummary(summary, (performance.now() - started) / 1000, opts.json === true, ingestId);
  // A file that could not be read to its end (a cut-off gzip, an I/O error) is an unreadable file:
  // exit 2, after the summary of everything that was read.
  for (const u of summary.unreadable ?? [])
    process.stderr.write(`assumeprobe: ${u.file}: ${describeFailure(u)}\n`);
  if (summary.unreadable) return 2;
  return summary.rejected > 0 ? 1 : 0;
}
