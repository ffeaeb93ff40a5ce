/** Runs once when the server starts: note the address it listens on (lib/http/boundAddress.ts). */
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { watchBoundAddress } = await import("./lib/http/boundAddress");
    watchBoundAddress();
  }
}
