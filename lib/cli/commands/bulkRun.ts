import type { Command } from "commander";
import { runBulk } from "../../../db/jobs/bulk";
import { cliDb } from "../db";
import { positiveInt, UsageError } from "../usage";

/**
 * `assumeprobe bulk-run JOB_ID`: runs a bulk relabel the dashboard started, to its end, in short
 * batches (the dashboard runs its jobs on worker threads, db/jobs; this is for a job to be
 * finished by hand). Prints the job's end as one JSON line.
 */
export function registerBulkRun(program: Command): void {
  program
    .command("bulk-run", { hidden: true })
    .description("Run a bulk relabel job the dashboard started, to its end.")
    .argument("<job_id>", "the job's id", positiveInt("job_id"))
    .action(async (jobId: number) => {
      const db = cliDb();
      // A pause between batches lets other writers (a reviewer's keypress, an ingest) take the lock.
      const job = await runBulk(db, jobId, { pauseMs: 10 });
      if (!job) throw new UsageError(`there is no bulk relabel ${jobId}`);
      process.stdout.write(
        `${JSON.stringify({ id: job.id, status: job.status, written: job.written, skipped: job.skipped, error: job.error })}\n`,
      );
      if (job.status === "failed") process.exitCode = 1;
    });
}
