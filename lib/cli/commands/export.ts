import type { Command } from "commander";
import { exportBatches, exportScope } from "../../../db/queries/exportRun";
import { checkTraceFilter, HUMAN_FILTERS } from "../../traceFilter";
import { cliDb } from "../db";
import { LineWriter } from "../output";
import { UsageError } from "../usage";

interface ExportOptions {
  format: string;
  field?: string;
  label?: string;
  reason?: string;
  flag?: string;
  gate?: string;
  human?: string;
  recorded?: string;
  probe?: string;
  search?: string;
  q?: string;
}

/** Each filter flag and the run page's URL parameter it sets: the two share one filter. */
const FILTER_FLAGS = [
  ["field", "field", "F", "the field the label, reason, human and recorded filters read (* for any)"],
  ["label", "label", "L", "our label of the field: ASK, OMIT, COPY, INJECT, DRIFT, ERROR"],
  ["reason", "reason", "R", "an INJECT reason: hidden, bait, invented"],
  ["flag", "flag", "F", "a trace or field flag"],
  ["gate", "gate", "V", "the gate's verdict"],
  ["human", "human", "L", `the current human label: ${HUMAN_FILTERS.join(", ")}`],
  ["recorded", "recorded", "A", "the recorded label against ours: agree, disagree"],
  ["probe", "probe", "ID", "traces of one probe"],
  ["search", "q", "Q", "words in the response text or argument values (a word ending in * is a prefix)"],
  ["q", "q", "Q", "the same as --search (the run page's name for it)"],
] as const;

export function registerExport(program: Command): void {
  const cmd = program
    .command("export")
    .description(
      "Print a run's traces with their stored labels, one JSON line each, in ingest order: the whole run, or every trace of a filter (the run page's filters).",
    )
    .argument("<run>", "run name")
    .option("--format <format>", "jsonl", "jsonl");
  for (const [flag, , value, help] of FILTER_FLAGS) cmd.option(`--${flag} <${value.toLowerCase()}>`, help);
  cmd.action(async (run: string, opts: ExportOptions) => {
    if (opts.format !== "jsonl") throw new UsageError(`--format must be jsonl, got "${opts.format}"`);
    const params = new URLSearchParams();
    for (const [flag, param] of FILTER_FLAGS) {
      const v = opts[flag];
      // Appended: --search and --q together are one parameter given twice, refused as the URL's is.
      if (v !== undefined) params.append(param, v);
    }
    const checked = checkTraceFilter(params);
    if (!checked.ok) throw new UsageError(`invalid filter: ${checked.error}`);
    const db = cliDb();
    const found = exportScope(db, run, checked.filter);
    if (!found.ok) throw new UsageError(found.error);
    const out = new LineWriter(process.stdout);
    for (const rows of exportBatches(db, found.scope, 500))
      for (const row of rows) await out.line(JSON.stringify(row));
    await out.flush();
  });
}
