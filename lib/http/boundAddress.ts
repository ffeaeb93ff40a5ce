import { subscribe } from "node:diagnostics_channel";
import type { Server } from "node:http";

/**
 * The address the HTTP server listens on, read from the listening socket itself: Node publishes
 * every incoming request on the `http.server.request.start` diagnostics channel, with its server,
 * before any handler (Next.js's, then proxy.ts) sees it. So `next start -H 0.0.0.0` run by hand is
 * known for what it is, whatever the environment or the command line say (Next.js reports a
 * 0.0.0.0 server as `localhost` in `__NEXT_PRIVATE_ORIGIN`, and `next start` without -H listens on
 * every interface). instrumentation.ts subscribes once, when the server starts.
 */
const KEY = Symbol.for("assumeprobe.boundAddress");
const WATCHING = Symbol.for("assumeprobe.boundAddress.watching");
type Holder = { [KEY]?: string; [WATCHING]?: boolean };
const holder = globalThis as Holder;

const addressOf = (server: Server): string | undefined => {
  const a = server.address();
  // A Unix socket (a string) takes no network connections.
  return typeof a === "string" ? "localhost" : (a?.address ?? undefined);
};

export function watchBoundAddress(): void {
  if (holder[WATCHING]) return;
  holder[WATCHING] = true;
  subscribe("http.server.request.start", (message) => {
    holder[KEY] = addressOf((message as { server: Server }).server);
  });
}

/** The address of the server the current request came through; undefined before any request. */
export function boundAddress(): string | undefined {
  return holder[KEY];
}
