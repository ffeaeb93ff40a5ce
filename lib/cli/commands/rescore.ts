import type { Command } from "commander";
import { runLeasedRescore } from "../../../db/jobs/rescore";
import { getRunByName } from "../../../db/queries/runs";
import { runByName } from "../../../db/queries/tuneRuns";
import { cliDb } from "../db";
import { LineWriter } from "../output";
import { rescoreWithCurrentConfiguration, saverName } from "../tuneFlow";
import { rescoreJson, rescoreLine } from "../tuneReport";
import { positiveInt, UsageError } from "../usage";

/**
 * `assumeprobe rescore RUN...`: re-scores runs with the current configuration (each probe's
 * current version and the current lexicon), reading only the traces it can change and rewriting
 * only those whose result changes. `rescore-jobs` runs re-scores the dashboard queued (by hand: the dashboard runs them itself).
 */
export function registerRescore(program: Command): void {
  program
    .command("rescore")
    .description(
      "Re-score runs with the current configuration (probes and lexicon): only traces whose result changes are rewritten, with their tags and the run's counts; stopped, it resumes.",
    )
    .argument("<runs...>", "run names")
    .option("--by <name>", "who asks for it (default: your login name)")
    .option("--json", "one JSON object: {rescores: [...]}")
    .action(async (names: string[], opts: { by?: string; json?: boolean }) => {
      const db = cliDb();
      const runs = names.map((n) => {
        const r = runByName(db, n);
        if (!r) throw new UsageError(`unknown run "${n}"`);
        if (getRunByName(db, n)?.kind === "gate_log")
          throw new UsageError(
            `run "${n}" is a gate-log run: its decisions were re-decided by our gate when they were ingested, and no probe scores them`,
          );
        return r;
      });
      const reports = rescoreWithCurrentConfiguration(db, runs, saverName(opts.by));
      const out = new LineWriter(process.stdout);
      if (opts.json) await out.line(JSON.stringify({ rescores: reports.map(rescoreJson) }));
      else for (const r of reports) await out.line(rescoreLine(r));
      await out.flush();
    });
  program
    .command("rescore-jobs", { hidden: true })
    .description("Run re-scores the dashboard queued, to their end.")
    .argument("<ids...>", "re-score ids")
    .action((ids: string[]) => {
      const db = cliDb();
      for (const raw of ids) {
        const id = positiveInt("id")(raw);
        const r = runLeasedRescore(db, id);
        if (r) process.stdout.write(`${JSON.stringify(rescoreJson(r))}\n`);
      }
    });
}
