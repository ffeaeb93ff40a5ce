/** The run loop with the real SDK client against the loopback server. */
import { afterEach, describe, expect, it } from "vitest";
import { createChatClient } from "./chatClient";
import type { ChatRequest } from "./request";
import { pendingSamples } from "./resume";
import { type Answer, runSamples } from "./runSamples";
import { type ChatServer, startChatServer } from "./testServer";

const BODY: ChatRequest = { model: "m", messages: [{ role: "user", content: "hi" }], temperature: 0 };
let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function collect() {
  const answers: Answer[] = [];
  const retries: { id: string; kind: string; delay: number }[] = [];
  const failed: { id: string; kind: string }[] = [];
  return {
    answers,
    retries,
    failed,
    events: {
      answer: (a: Answer) => answers.push(a),
      retry: (s: { id: string }, f: { kind: string }, delay: number) =>
        retries.push({ id: s.id, kind: f.kind, delay }),
      failed: (s: { id: string }, f: { kind: string }) => failed.push({ id: s.id, kind: f.kind }),
    },
  };
}

const samples = (n: number) => pendingSamples(["p"], n, 4, new Set()).pending;
const client = (s: ChatServer, timeoutMs = 5000) =>
  createChatClient({ baseURL: s.baseURL, apiKey: "k", secrets: [], timeoutMs });

describe("runSamples", () => {
  it.each([1, 3])("keeps at most %i requests in flight", async (k) => {
    server = await startChatServer([], undefined, { delayMs: 40 });
    const c = collect();
    await runSamples(samples(9), k, client(server), () => BODY, c.events);
    expect(c.answers).toHaveLength(9);
    expect(server.maxInFlight).toBe(k);
    expect(new Set(c.answers.map((a) => a.sample.id)).size).toBe(9);
  });

  it("waits what retry-after asks, then answers; the payload is the server's whole JSON", async () => {
    server = await startChatServer([
      { status: 429, body: { error: { message: "slow" } }, headers: { "retry-after": "7" } },
      { status: 502, body: "bad gateway" },
    ]);
    const c = collect();
    const slept: number[] = [];
    await runSamples(samples(1), 1, client(server), () => BODY, c.events, {
      sleep: async (ms) => {
        slept.push(ms);
      },
      random: () => 0,
    });
    expect(slept).toEqual([7000, 1000]);
    expect(c.retries.map((r) => r.kind)).toEqual(["rate_limited", "server"]);
    expect(c.answers).toHaveLength(1);
    expect(c.answers[0].raw).toMatchObject({
      object: "chat.completion",
      model: "m",
      choices: [expect.any(Object)],
    });
    expect(c.answers[0].latencyMs).toBeGreaterThan(0);
  });

  it("gives up after 5 retries", async () => {
    server = await startChatServer([], () => ({ status: 500, body: { error: { message: "no" } } }));
    const c = collect();
    await runSamples(samples(2), 1, client(server), () => BODY, c.events, { sleep: async () => {} });
    expect(c.failed).toEqual([
      { id: "p#0001", kind: "server" },
      { id: "p#0002", kind: "server" },
    ]);
    expect(c.retries).toHaveLength(10);
    expect(server.requests).toHaveLength(12);
  });

  it("times out an answer whose body stalls after its headers, not only one that never starts", async () => {
    server = await startChatServer([{ stall: true }, { hang: true }]);
    const c = collect();
    const t0 = performance.now();
    await runSamples(samples(2), 2, client(server, 300), () => BODY, c.events, { retries: 0 });
    expect(c.failed.map((f) => f.kind)).toEqual(["timeout", "timeout"]);
    expect(performance.now() - t0).toBeLessThan(3000);
  });

  it("a 401 stops the run at once: nothing more is asked, answers still in flight are dropped", async () => {
    let n = 0;
    server = await startChatServer(
      [],
      () => (++n === 3 ? { status: 401, body: {} } : { message: { content: "ok" } }),
      {
        delayMs: 30,
      },
    );
    const c = collect();
    const out = await runSamples(samples(20), 2, client(server), () => BODY, c.events);
    expect(out.fatal?.kind).toBe("auth");
    expect(server.requests.length).toBeLessThanOrEqual(4);
    expect(c.answers.length).toBeLessThanOrEqual(3);
    expect(c.failed).toEqual([]);
  });

  it("an outside stop ends the run without a failure", async () => {
    server = await startChatServer([], undefined, { delayMs: 50 });
    const stop = new AbortController();
    const c = collect();
    setTimeout(() => stop.abort(), 120);
    const out = await runSamples(samples(50), 1, client(server), () => BODY, c.events, { stop: stop.signal });
    expect(out).toEqual({ interrupted: true });
    expect(c.answers.length).toBeGreaterThan(0);
    expect(c.answers.length).toBeLessThan(50);
    expect(c.failed).toEqual([]);
  });
});
