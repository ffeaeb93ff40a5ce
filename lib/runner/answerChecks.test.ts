/**
 * What the runner takes for an answer, with the real SDK client against the loopback server: a
 * connection closed mid-body is retried as a dropped one, a 200 that is no chat completion fails its
 * sample at once (never an answer), and an answer ingest could not store is refused by the limit
 * ingest uses.
 */
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_MAX_RECORD_BYTES } from "../ingest/splitRecords";
import { createChatClient } from "./chatClient";
import type { ChatRequest } from "./request";
import { pendingSamples } from "./resume";
import type { Failure } from "./retry";
import { type Answer, runSamples } from "./runSamples";
import { type ChatServer, startChatServer } from "./testServer";

const BODY: ChatRequest = { model: "m", messages: [{ role: "user", content: "hi" }], temperature: 0 };
let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(s: ChatServer, n = 1) {
  const answers: Answer[] = [];
  const retries: Failure[] = [];
  const failed: Failure[] = [];
  await runSamples(
    pendingSamples(["p"], n, 4, new Set()).pending,
    1,
    createChatClient({ baseURL: s.baseURL, apiKey: "k", secrets: [], timeoutMs: 10_000 }),
    () => BODY,
    {
      answer: (a) => answers.push(a),
      retry: (_s, f) => retries.push(f),
      failed: (_s, f) => failed.push(f),
    },
    { sleep: async () => {} },
  );
  return { answers, retries, failed };
}

describe("what the runner takes for an answer", () => {
  it("retries a connection closed in the middle of the answer's body, then takes the whole answer", async () => {
    server = await startChatServer([{ cut: true }, { cut: true }]);
    const r = await run(server);
    expect(r.retries.map((f) => f.kind)).toEqual(["dropped", "dropped"]);
    expect(r.retries[0].message).toMatch(/closed in the middle of the answer/);
    expect(r.answers).toHaveLength(1);
    expect(r.failed).toEqual([]);
    expect(server.requests).toHaveLength(3);
  });

  it("a connection closed before the answer's headers is still retried", async () => {
    server = await startChatServer([{ drop: true }]);
    const r = await run(server);
    expect(r.retries.map((f) => f.kind)).toEqual(["dropped"]);
    expect(r.answers).toHaveLength(1);
  });

  it.each([
    ["an HTML page", "text/html; charset=utf-8", "<!doctype html><title>Sign in to the proxy</title>"],
    ["plain text", "text/plain", "upstream said hello"],
    ["JSON that is no completion", "application/json", '{"status":"ok","models":["m"]}'],
  ])(
    "a 200 with %s fails its sample at once, the start of the body in the message, never an answer",
    async (_what, type, text) => {
      server = await startChatServer([{ status: 200, body: text, headers: { "content-type": type } }]);
      const r = await run(server, 2);
      expect(r.retries).toEqual([]);
      expect(r.failed).toHaveLength(1);
      expect(r.failed[0].kind).toBe("unreadable");
      expect(r.failed[0].message).toContain("not a chat completion");
      expect(r.failed[0].message).toContain(type.split(";")[0]);
      expect(r.failed[0].message).toContain(text.slice(0, 20));
      // The second sample got a real completion: only that one is an answer.
      expect(r.answers).toHaveLength(1);
      expect(r.answers[0].raw).toMatchObject({ object: "chat.completion" });
      expect(server.requests).toHaveLength(2);
    },
  );

  it("an answer over ingest's record limit is refused (not retried, not an answer); one just under is taken", async () => {
    const over = "x".repeat(DEFAULT_MAX_RECORD_BYTES);
    const under = "y".repeat(DEFAULT_MAX_RECORD_BYTES - 64 * 1024);
    server = await startChatServer([{ message: { content: over } }, { message: { content: under } }]);
    const r = await run(server, 2);
    expect(r.retries).toEqual([]);
    expect(r.failed).toHaveLength(1);
    expect(r.failed[0].kind).toBe("too_large");
    expect(r.failed[0].message).toContain(`the record limit of ${DEFAULT_MAX_RECORD_BYTES} bytes`);
    expect(r.answers).toHaveLength(1);
    expect(JSON.stringify(r.answers[0].raw)).toContain("yyyy");
  });
});
