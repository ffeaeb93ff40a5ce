/** Runs once when the server starts: watch the address it listens on and its requests in flight (lib/http/serverState.ts). */
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { watchServer } = await import("./lib/http/serverState");
    watchServer();
  }
}
