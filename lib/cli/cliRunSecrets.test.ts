/**
 * The API key is never printed, logged, stored or put in an error message, on any path: servers
 * here echo the key (whole, masked as OpenAI's 401 does, in headers and in bodies) into every kind
 * of answer, the SDK's debug log is asked for through OPENAI_LOG, and every byte the runner leaves
 * behind (stdout, stderr, the trace file, the database and its WAL) is searched for any 8
 * characters of the key.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ChatServer,
  closedPort,
  type SeenRequest,
  type Step,
  startChatServer,
} from "../runner/testServer";
import { cliSandbox, runCli } from "./testCli";

const box = cliSandbox("secrets");
afterAll(box.cleanup);

const KEY = `sk-proj-${randomBytes(24).toString("base64url")}`;
const ENV = { ASSUMEPROBE_DB: box.dbPath, OPENAI_API_KEY: KEY, OPENAI_LOG: "debug", DEBUG: "*" };

/** Every 8-character piece of the key found in a text. */
function pieces(text: string): string[] {
  const found: string[] = [];
  for (let i = 0; i + 8 <= KEY.length; i++)
    if (text.includes(KEY.slice(i, i + 8))) found.push(KEY.slice(i, i + 8));
  return found;
}

const masked = `${KEY.slice(0, 8)}${"*".repeat(20)}${KEY.slice(-8)}`;
const echo = (r: SeenRequest) => `${r.headers.authorization} (${masked}) key=${KEY}`;

/** What the server answers, by test: each echoes what it was sent. */
let mode: (r: SeenRequest) => Step = () => ({ message: { content: "ok" } });
let server: ChatServer;
beforeAll(async () => {
  server = await startChatServer([], (r) => mode(r));
});
afterAll(() => server.close());

const seen: string[] = [];
async function run(name: string, baseURL: string, extra: string[] = []) {
  const file = `${box.dir}/${name}.jsonl`;
  const r = await runCli(
    [
      "run",
      "--base-url",
      baseURL,
      "--model",
      "m",
      "--samples",
      "2",
      "--timeout",
      "0.5",
      "--out",
      file,
      "--ingest",
      ...extra,
    ],
    ENV,
  );
  seen.push(r.stdout, r.stderr, existsSync(file) ? readFileSync(file, "utf8") : "");
  expect(pieces(r.stdout), `${name}: stdout`).toEqual([]);
  expect(pieces(r.stderr), `${name}: stderr`).toEqual([]);
  if (existsSync(file)) expect(pieces(readFileSync(file, "utf8")), `${name}: trace file`).toEqual([]);
  return r;
}

const errorBody = (r: SeenRequest) => ({ error: { message: echo(r), headers: r.headers } });

describe("the API key on every failure path", { timeout: 180_000 }, () => {
  it.each<[string, (r: SeenRequest) => Step, number, string[]?]>([
    ["401", (r) => ({ status: 401, body: errorBody(r), headers: { "www-authenticate": echo(r) } }), 2],
    ["404", (r) => ({ status: 404, body: errorBody(r) }), 2],
    ["500 after retries", (r) => ({ status: 500, body: errorBody(r), headers: { "retry-after": "0" } }), 1],
    ["429 after retries", (r) => ({ status: 429, body: errorBody(r), headers: { "retry-after": "0" } }), 1],
    ["400", (r) => ({ status: 400, body: errorBody(r) }), 1],
    ["403 as text", (r) => ({ status: 403, body: `forbidden: ${echo(r)}` }), 1],
    [
      "a 200 that is not JSON",
      (r) => ({ status: 200, body: `{"oops": "${echo(r)}`, headers: { "content-type": "application/json" } }),
      1,
    ],
    // Not a chat completion: its sample fails, the start of the body (scrubbed) in the message.
    ["a 200 as plain text", (r) => ({ status: 200, body: `here is your key ${echo(r)}` }), 1],
    ["an answer that echoes the key", (r) => ({ message: { content: `Your header was ${echo(r)}` } }), 0],
    [
      "a tool call whose arguments hold the key",
      (r) => ({
        message: {
          content: null,
          tool_calls: [
            {
              type: "function",
              function: {
                name: "schedule_window",
                arguments: JSON.stringify({ timezone: echo(r), [KEY]: 1 }),
              },
            },
          ],
        },
      }),
      0,
    ],
    // Our backoff would wait 15 s per sample here: one retry takes the same path.
    ["a hang past the timeout", () => ({ hang: true }), 1, ["--retries", "1"]],
    ["a dropped connection", () => ({ drop: true }), 1, ["--retries", "1"]],
  ])("%s", async (name, step, code, flags = []) => {
    mode = step;
    const before = server.requests.length;
    for (const extra of [flags, [...flags, "--json"]]) {
      const r = await run(
        `${name.replaceAll(" ", "-")}${extra.includes("--json") ? "-json" : ""}`,
        server.baseURL,
        extra,
      );
      expect(r.code, `${name}: ${r.stderr}`).toBe(code);
    }
    // Not vacuous: the server was sent the key.
    expect(server.requests.slice(before).some((q) => q.headers.authorization === `Bearer ${KEY}`)).toBe(true);
  });

  it("connection refused at a base URL that holds the key in its query", async () => {
    const port = await closedPort();
    const r = await run("refused", `http://127.0.0.1:${port}/v1?api-key=${KEY}&key=${KEY}`);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("no server answers at");
  });

  it("a base URL with credentials in it is refused without printing them", async () => {
    const r = await run("userinfo", `http://user:${KEY}@127.0.0.1:${server.port}/v1`);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("must not hold credentials");
  });

  it("and the database never holds it", () => {
    for (const f of [box.dbPath, `${box.dbPath}-wal`]) {
      if (!existsSync(f)) continue;
      expect(pieces(readFileSync(f).toString("latin1")), f).toEqual([]);
    }
    // The runs did leave output to search.
    expect(seen.join("").length).toBeGreaterThan(1000);
  });
});
