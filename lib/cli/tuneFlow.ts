import { userInfo } from "node:os";
import type { Db } from "../../db/client";
import { runLeasedRescore } from "../../db/jobs/rescore";
import { queueConfigRescore, type RescoreReport } from "../../db/queries/rescore/jobs";
import { runRescore } from "../../db/queries/rescore/run";
import type { RunRef } from "../../db/queries/tuneRuns";
import { whatIf } from "../../db/queries/whatIf";
import type { TuneDraft } from "../tuning/contract";
import { guardOf, guardWords, needsConfirmation } from "../tuning/guard";
import { LineWriter } from "./output";
import { rescoreJson, rescoreLine, whatIfLines } from "./tuneReport";
import { UsageError } from "./usage";

/** The flags `lexicon edit` and `probes edit` share (DESIGN.md, "Interfaces"). */
export interface TuneFlags {
  by?: string;
  allowBreak?: boolean;
  dryRun?: boolean;
  rescore?: boolean;
  json?: boolean;
}

/** Who saves: `--by`, else the login name of whoever runs the command. */
export function saverName(by: string | undefined): string {
  const name = (by ?? process.env.USER ?? safeUser()).trim();
  if (name === "") throw new UsageError("say who saves the change with --by NAME");
  return name;
}

function safeUser(): string {
  try {
    return userInfo().username;
  } catch {
    return "";
  }
}

export interface SaveOutcome {
  version: number;
  created: boolean;
  /** What was saved, in words ("lexicon v3", "schedule_window v4"). */
  what: string;
}

/**
 * The what-if, then (unless --dry-run) the save and (with --rescore) the re-score of the runs it
 * applies to: the same steps as the tune and lexicon pages. A draft that breaks a seed fixture is
 * refused (exit 1) unless --allow-break. Returns the exit code.
 */
export async function runTuneFlow(
  db: Db,
  draft: TuneDraft,
  flags: TuneFlags,
  save: (by: string) => SaveOutcome,
  runs: () => RunRef[],
): Promise<number> {
  const by = flags.dryRun ? "" : saverName(flags.by);
  const report = whatIf(db, draft);
  const out = new LineWriter(process.stdout);
  const result: Record<string, unknown> = { what_if: report, saved: null, refused: null, rescores: [] };
  const say = async (line: string) => {
    if (!flags.json) await out.line(line);
  };
  for (const line of whatIfLines(report)) await say(line);
  let code = 0;
  if (flags.dryRun) await say("dry run: nothing saved");
  else if (needsConfirmation(guardOf(report)) && !flags.allowBreak) {
    const why = `it breaks ${guardWords(guardOf(report))}: nothing saved (--allow-break saves it anyway)`;
    result.refused = why;
    process.stderr.write(`assumeprobe: ${why}\n`);
    code = 1;
  } else {
    const saved = save(by);
    result.saved = { version: saved.version, created: saved.created };
    await say(
      saved.created ? `saved ${saved.what} (by ${by})` : `nothing to save: ${saved.what} already says this`,
    );
    if (flags.rescore) {
      const reports = rescoreWithCurrentConfiguration(db, runs(), by);
      result.rescores = reports.map(rescoreJson);
      for (const r of reports) await say(rescoreLine(r));
    }
  }
  if (flags.json) await out.line(JSON.stringify(result));
  await out.flush();
  return code;
}

/**
 * Re-scores runs with the current configuration (the lexicon and each probe's current version as
 * they are now), one after another, with progress on standard error. Not db/queries/rescore's
 * rereadRuns, which scores each trace with the versions that scored it.
 */
export function rescoreWithCurrentConfiguration(db: Db, runs: RunRef[], by: string | null): RescoreReport[] {
  let lastLog = Date.now();
  const progress = (p: { run: string; scanned: number; total: number }) => {
    if (Date.now() - lastLog < 2000) return;
    lastLog = Date.now();
    process.stderr.write(
      `  re-scoring ${p.run}: ${p.scanned.toLocaleString("en-US")} of ${p.total.toLocaleString("en-US")} traces…\n`,
    );
  };
  return runs.map((r) => {
    const id = queueConfigRescore(db, r.id, "configuration", by);
    if (by === null) return runRescore(db, id, { onProgress: progress });
    // With a requester it is a re-score the dashboard would resume if we stopped: held by a lease.
    const report = runLeasedRescore(db, id, { onProgress: progress });
    if (!report)
      throw new Error(`re-score ${id} of ${r.name} was taken over by another runner (the dashboard)`);
    return report;
  });
}
