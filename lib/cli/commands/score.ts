import type { Command } from "commander";
import { openSource, SourceError } from "../../ingest/readSource";
import { DEFAULT_MAX_RECORD_BYTES, RecordSplitter } from "../../ingest/splitRecords";
import { interpretRecord } from "../../ingest/traceRecord";
import { DEFAULT_PROBE_ID } from "../../probe/builtin";
import { compileProbe } from "../../probe/compile";
import { scoreTrace } from "../../probe/score";
import { cliScoring } from "../db";
import { LineWriter, OutputClosed } from "../output";
import { positiveInt, UsageError } from "../usage";

interface ScoreOptions {
  probe?: string;
  model?: string;
  /** The built-in probes and no lexicon, whatever the database holds (parity checks). */
  builtin?: boolean;
  maxRecordBytes: number;
}

export function registerScore(program: Command): void {
  program
    .command("score")
    .description("Score every probed field of every record; one JSON line per record.")
    .argument("[file]", "JSONL trace file (gzip accepted), or - for standard input", "-")
    .option("--probe <id>", "probe for records that name none (default: schedule_window)")
    .option("--model <name>", "pinned model for records that name none (for model_mismatch)")
    .option("--builtin", "score with the built-in probes and no lexicon, whatever the database holds")
    .option(
      "--max-record-bytes <n>",
      "reject records larger than this",
      positiveInt("--max-record-bytes"),
      DEFAULT_MAX_RECORD_BYTES,
    )
    .action(async (file: string, opts: ScoreOptions) => {
      process.exitCode = await runScore(file, opts);
    });
}

/** Scores a file; returns the exit code (1 when any record was bad). */
export async function runScore(
  file: string,
  opts: ScoreOptions,
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  const { lookup, lexicon } = cliScoring({ builtin: opts.builtin });
  const defaults = { probe: opts.probe ?? DEFAULT_PROBE_ID };
  if (!lookup(defaults.probe)) throw new UsageError(`unknown probe "${defaults.probe}" (--probe)`);
  let source: ReturnType<typeof openSource>;
  try {
    source = openSource(file);
  } catch (e) {
    if (e instanceof SourceError) throw new UsageError(e.message);
    throw e;
  }
  const writer = new LineWriter(out as never);
  const splitter = new RecordSplitter(opts.maxRecordBytes);
  let bad = 0;
  const handle = async (records: ReturnType<RecordSplitter["push"]>) => {
    for (const rec of records) {
      if (rec.error !== undefined) {
        bad++;
        err.write(`line ${rec.line}: ${rec.error}\n`);
        continue;
      }
      const r = interpretRecord(rec.value, defaults, lookup);
      if (!r.ok) {
        bad++;
        err.write(`line ${rec.line}: ${r.reason}\n`);
        continue;
      }
      const t = r.record;
      const pinned = t.model ?? opts.model;
      const score = scoreTrace(
        {
          response: t.response,
          world_state: t.world_state,
          side_effect: t.side_effect,
          recorded: t.recorded,
          model: pinned ? { pinned, payload: t.payloadModel } : undefined,
        },
        compileProbe(t.probe, lexicon),
      );
      const line: Record<string, unknown> = { line: rec.line };
      if (t.id !== null) line.id = t.id;
      Object.assign(line, score);
      await writer.line(JSON.stringify(line));
    }
  };
  try {
    for await (const chunk of source) await handle(splitter.push(chunk as Buffer));
    await handle(splitter.end());
  } catch (e) {
    if (e instanceof OutputClosed) throw e;
    await writer.flush();
    err.write(
      `assumeprobe: reading ${file === "-" ? "standard input" : file} failed: ${(e as Error).message}\n`,
    );
    // The file itself could not be read (a corrupt gzip stream, an I/O error): a usage-level failure.
    return 2;
  }
  await writer.flush();
  return bad > 0 ? 1 : 0;
}
