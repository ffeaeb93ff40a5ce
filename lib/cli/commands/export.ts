import type { Command } from "commander";
import { exportRunRows, findRunId } from "../../../db/queries/exportRun";
import { cliDb } from "../db";
import { LineWriter } from "../output";
import { UsageError } from "../usage";

export function registerExport(program: Command): void {
  program
    .command("export")
    .description("Print a run's traces with their stored labels, one JSON line each, in ingest order.")
    .argument("<run>", "run name")
    .option("--format <format>", "jsonl", "jsonl")
    .action(async (run: string, opts: { format: string }) => {
      if (opts.format !== "jsonl") throw new UsageError(`--format must be jsonl, got "${opts.format}"`);
      const db = cliDb();
      const runId = findRunId(db, run);
      if (runId === undefined) throw new UsageError(`unknown run "${run}"`);
      const out = new LineWriter(process.stdout);
      for (const row of exportRunRows(db, runId)) await out.line(JSON.stringify(row));
      await out.flush();
    });
}
