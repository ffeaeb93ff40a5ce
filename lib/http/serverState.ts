import { subscribe } from "node:diagnostics_channel";
import type { Server, ServerResponse } from "node:http";
import { Server as NetServer } from "node:net";
import { isLoopbackAddress } from "./hosts";

/**
 * What the HTTP server is doing, seen from Node's own sockets: the address it listens on, and how
 * many requests it is answering (an export steps aside while others are).
 *
 * The address is read from the listening socket itself: Node publishes
 * every incoming request on the `http.server.request.start` diagnostics channel, with its server,
 * before any handler (Next.js's, then proxy.ts) sees it. So `next start -H 0.0.0.0` run by hand is
 * known for what it is, whatever the environment or the command line say (Next.js reports a
 * 0.0.0.0 server as `localhost` in `__NEXT_PRIVATE_ORIGIN`, and `next start` without -H listens on
 * every interface). instrumentation.ts subscribes once (watchServer), when the server starts.
 */
const KEY = Symbol.for("assumeprobe.boundAddress");
const WATCHING = Symbol.for("assumeprobe.boundAddress.watching");
const IN_FLIGHT = Symbol.for("assumeprobe.inFlight");
type Holder = { [KEY]?: string; [WATCHING]?: boolean; [IN_FLIGHT]?: number };
const holder = globalThis as Holder;

const addressOf = (server: Server): string | undefined => {
  const a = server.address();
  // A Unix socket (a string) takes no network connections.
  return typeof a === "string" ? "localhost" : (a?.address ?? undefined);
};

/**
 * The servers already listening when instrumentation runs (Next.js listens first, then loads it):
 * requests that arrived during start-up were published before the subscription, so the first
 * answer must not wait for the next one. `_getActiveHandles` is Node's own (long-standing, if
 * undocumented) list; where it is missing, the first request of a new connection decides.
 */
function listeningNow(): string | undefined {
  const handles = (process as unknown as { _getActiveHandles?: () => unknown[] })._getActiveHandles?.() ?? [];
  const addresses = handles
    .filter((h): h is Server => h instanceof NetServer && h.listening)
    .map(addressOf)
    .filter((a): a is string => a !== undefined);
  // Any address beyond loopback decides; else the first (all loopback).
  return addresses.find((a) => !isLoopbackAddress(a)) ?? addresses[0];
}

export function watchServer(): void {
  if (holder[WATCHING]) return;
  holder[WATCHING] = true;
  holder[KEY] ??= listeningNow();
  holder[IN_FLIGHT] = 0;
  subscribe("http.server.request.start", (message) => {
    const { server, response } = message as { server: Server; response: ServerResponse };
    holder[KEY] = addressOf(server);
    // Requests being answered now; `close` comes whether the answer finished or was cut off.
    holder[IN_FLIGHT] = (holder[IN_FLIGHT] ?? 0) + 1;
    response.once("close", () => {
      holder[IN_FLIGHT] = (holder[IN_FLIGHT] ?? 1) - 1;
    });
  });
}

/**
 * How many requests the server is answering right now (the caller's own included); undefined
 * when nothing counts them (outside a server started with instrumentation.ts).
 */
export function requestsInFlight(): number | undefined {
  return holder[IN_FLIGHT];
}

/** The address of the server the current request came through; undefined before any request. */
export function boundAddress(): string | undefined {
  return holder[KEY];
}
