/**
 * A chat-completions server on loopback for tests and benchmarks: the edge of the world, replaying
 * scripted answers over real HTTP, so the runner goes through the official SDK, fetch and sockets
 * exactly as it does against vLLM or llama.cpp.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ChatMessage {
  role?: "assistant";
  content: string | null;
  tool_calls?: { id?: string; type?: "function"; function: { name: string; arguments: string } }[];
}

export type Step =
  /** A 200 chat completion with this message (`model`: name it as another model than the one asked). */
  | { message: ChatMessage; model?: string }
  /** Any answer: a status, a JSON or text body, headers. */
  | { status: number; body?: unknown; headers?: Record<string, string> }
  /** Headers never come; the socket stays open until the client gives up. */
  | { hang: true }
  /** The connection is cut before any answer. */
  | { drop: true }
  /** Headers and half a body come, then nothing more. */
  | { stall: true }
  /** Headers and half a body come, then the connection is closed. */
  | { cut: true };

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: Record<string, unknown>;
}

export interface ChatServer {
  url: string;
  /** The base URL the SDK takes: `${url}/v1`. */
  baseURL: string;
  port: number;
  requests: SeenRequest[];
  /** Steps still to play; when empty, `fallback` answers. */
  script: Step[];
  /** The most requests it held at once. */
  maxInFlight: number;
  close(): Promise<void>;
}

export const toolCall = (name: string, args: unknown, id = "call_1") => ({
  id,
  type: "function" as const,
  function: { name, arguments: typeof args === "string" ? args : JSON.stringify(args) },
});

function completion(model: string, message: ChatMessage, n: number) {
  return {
    id: `chatcmpl-${n}`,
    object: "chat.completion",
    created: 1_790_000_000,
    model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", ...message },
        finish_reason: message.tool_calls?.length ? "tool_calls" : "stop",
      },
    ],
    usage: { prompt_tokens: 80, completion_tokens: 20, total_tokens: 100 },
  };
}

/**
 * Starts the server. Each POST /v1/chat/completions plays the next step of `script` (or, when it
 * is empty, `fallback(request)`); anything else answers 404 as a real server would.
 */
export async function startChatServer(
  script: Step[] = [],
  fallback: (r: SeenRequest) => Step = () => ({ message: { content: "Which timezone should I use?" } }),
  opts: { record?: boolean /** Wait this long before each answer. */; delayMs?: number } = {},
): Promise<ChatServer> {
  const requests: SeenRequest[] = [];
  const hanging = new Set<ServerResponse>();
  let n = 0;
  let inFlight = 0;
  const server: Server = createServer((req, res) => {
    inFlight++;
    api.maxInFlight = Math.max(api.maxInFlight, inFlight);
    res.on("close", () => inFlight--);
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        // A body that is not JSON stays {}: the step decides the answer.
      }
      const seen: SeenRequest = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body };
      // Recorded as it arrives, answered after the delay.
      if (opts.record !== false) requests.push(seen);
      if (opts.delayMs) setTimeout(() => answer(seen), opts.delayMs);
      else answer(seen);
    });
    const answer = (seen: SeenRequest) => {
      const body = seen.body;
      if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
        return;
      }
      const step = api.script.shift() ?? fallback(seen);
      n++;
      if ("hang" in step) {
        hanging.add(res);
        res.on("close", () => hanging.delete(res));
        return;
      }
      if ("stall" in step) {
        hanging.add(res);
        res.on("close", () => hanging.delete(res));
        res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
        res.write('{"object": "chat.completion", "choices": [');
        return;
      }
      if ("cut" in step) {
        res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
        res.write('{"object": "chat.completion", "choices": [', () => req.socket.destroy());
        return;
      }
      if ("drop" in step) {
        req.socket.destroy();
        return;
      }
      if ("message" in step) {
        const asked = typeof body.model === "string" ? body.model : "unknown";
        const text = JSON.stringify(completion(step.model ?? asked, step.message, n));
        res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
        res.end(text);
        return;
      }
      const isText = typeof step.body === "string";
      const text = isText ? (step.body as string) : JSON.stringify(step.body ?? {});
      res.writeHead(step.status, {
        "content-type": isText ? "text/plain" : "application/json",
        ...step.headers,
      });
      res.end(text);
    };
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const api: ChatServer = {
    url,
    baseURL: `${url}/v1`,
    port,
    requests,
    script,
    maxInFlight: 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return api;
}

/** A port on loopback that nothing listens on (bound, then closed). */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}
