/**
 * Runs once when the server starts: watch the address it listens on and its requests in flight
 * (lib/http/serverState.ts), and resume in the background the jobs a restart left (db/jobs).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { watchServer } = await import("./lib/http/serverState");
    watchServer();
    try {
      const { getDb } = await import("./db/client");
      const { watchJobs } = await import("./db/jobs/background");
      watchJobs(getDb());
    } catch (e) {
      // The pages still answer (with the database's own error) when it cannot be opened.
      console.error("assumeprobe: could not resume the background jobs:", e);
    }
  }
}
