import type { Command } from "commander";
import { runBulk } from "../../../db/queries/bulkRunner";
import { cliDb } from "../db";
import { positiveInt, UsageError } from "../usage";

/**
 * `assumeprobe bulk-run JOB_ID`: runs a bulk relabel the dashboard started, to its end, in short
 * batches (the dashboard starts this itself, in a child process; it is here for a job to be
 * finished by hand too). Prints the job's end as one JSON line.
 */
export function registerBulkRun(program: Command): void {
  program
    .command("bulk-run", { hidden: true })
    .description("Run a bulk relabel job the dashboard started, to its end.")
    .argument("<job_id>", "the job's id", positiveInt("job_id"))
    .option("--owner <name>", "the lease owner the dashboard claimed the job for")
    .action(async (jobId: number, opts: { owner?: string }) => {
      const db = cliDb();
      // A pause between batches lets other writers (a reviewer's keypress, an ingest) take the lock.
      const job = await runBulk(db, jobId, { pauseMs: 10, owner: opts.owner });
      if (!job) throw new UsageError(`there is no bulk relabel ${jobId}`);
      process.stdout.write(
        `${JSON.stringify({ id: job.id, status: job.status, written: job.written, skipped: job.skipped, error: job.error })}\n`,
      );
      if (job.status === "failed") process.exitCode = 1;
    });
}
