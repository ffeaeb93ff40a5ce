/**
 * Every route that takes a body reads it whole up to its documented limit, or stops with a 4xx that
 * names the limit and keeps the whole lines before it: the fixture import and the upload over the
 * 10 MB a proxy keeps, past the limit, cut off by a client that went away; a form's server action
 * over its 1 MB; a POST to the icons. Against the real server (e2e/serve.js, a 16 MB upload limit).
 */
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { expect, test } from "@playwright/test";
import { fixtureIdentity, type WorldSnapshot } from "../lib/fixtures/world";
import type { NormalizedResponse } from "../lib/probe/response";
import { cli, openReadOnly, queryOne } from "./pages/e2eDb";

const LIMIT = 16 * 1048576;
const PORT = Number(process.env.E2E_PORT ?? 3217);

/** `n` distinct fixture lines for `set`, each about `size` bytes, made from a demo fixture's line. */
function fixtureLines(set: string, n: number, size: number): string[] {
  const template = JSON.parse(cli(["fixtures", "export", "demo-regressions"]).split("\n")[0]) as {
    world: WorldSnapshot;
    response: NormalizedResponse;
    field: string;
  } & Record<string, unknown>;
  const pad = "p".repeat(Math.max(0, size - JSON.stringify(template).length));
  return Array.from({ length: n }, (_, i) => {
    const response = { ...template.response, text: `Which region are you in? ${pad} ${set} ${i}` };
    const identity = fixtureIdentity(template.world, response, template.field);
    return JSON.stringify({ ...template, set, identity, response, source: null });
  });
}

const fixtureCount = (set: string) =>
  queryOne<{ n: number }>(
    "SELECT count(*) AS n FROM fixtures f JOIN fixture_sets s ON s.id = f.set_id WHERE s.name = ?",
    set,
  )?.n ?? 0;

/** A POST whose body is sent in chunks without a Content-Length (what a streaming client sends). */
function postChunked(path: string, body: Buffer): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port: PORT, path, method: "POST", headers: { "transfer-encoding": "chunked" } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c) => {
          text += c;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
      },
    );
    req.on("error", reject);
    for (let at = 0; at < body.length; at += 256 * 1024) req.write(body.subarray(at, at + 256 * 1024));
    req.end();
  });
}

/**
 * Sends the headers (declaring a longer body) and `sent` at once, then closes its side (Node then
 * answers a bare 400) and goes away: the server has chunks it has not read yet when the body fails.
 */
function postThenVanish(path: string, sent: Buffer, declared: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = connect(PORT, "127.0.0.1", () => {
      s.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${PORT}\r\nContent-Type: application/octet-stream\r\nContent-Length: ${declared}\r\n\r\n`,
      );
      s.write(sent, () => {
        s.end();
        setTimeout(() => {
          s.destroy();
          resolve();
        }, 500);
      });
    });
    s.on("data", () => {});
    s.on("error", reject);
  });
}

async function until<T>(what: () => T | undefined, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = what();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 250));
  }
}

test.describe.configure({ timeout: 180_000 });

test("a fixture import over 10 MB arrives whole: every line imported, 200", async ({ request }) => {
  const lines = fixtureLines("e2e-big-import", 6000, 2200);
  const body = `${lines.join("\n")}\n`;
  expect(body.length).toBeGreaterThan(11 * 1048576);
  const res = await request.post("/fixtures/import?filename=big.jsonl&set=e2e-big-import", {
    data: body,
    timeout: 150_000,
  });
  expect(res.status()).toBe(200);
  const sum = await res.json();
  expect(sum).toMatchObject({ lines: 6000, added: 6000, rejected: 0 });
  expect(fixtureCount("e2e-big-import")).toBe(6000);
});

test("a fixture import past the upload limit: 413 naming it, every whole line before it imported, none cut in two", async ({
  request,
}) => {
  const lines = fixtureLines("e2e-over-import", 9000, 2200);
  const body = Buffer.from(`${lines.join("\n")}\n`);
  expect(body.length).toBeGreaterThan(LIMIT);
  const whole = body.subarray(0, LIMIT).toString("utf8").split("\n").length - 1;

  // Declared past the limit: refused before any byte is read.
  const declared = await request.post("/fixtures/import?filename=over.jsonl&set=e2e-over-import", {
    data: body,
  });
  expect(declared.status()).toBe(413);
  expect((await declared.json()).error).toMatch(/over the upload limit of 16 MB/);
  expect(fixtureCount("e2e-over-import")).toBe(0);

  // Streamed without a length: read to the limit, the whole lines before it imported.
  const streamed = await postChunked("/fixtures/import?filename=over.jsonl&set=e2e-over-import", body);
  expect(streamed.status).toBe(413);
  expect(streamed.json.error).toMatch(/over the upload limit of 16 MB \(ASSUMEPROBE_UPLOAD_MAX_MB\)/);
  expect(streamed.json).toMatchObject({ lines: whole, added: whole, rejected: 0 });
  expect(fixtureCount("e2e-over-import")).toBe(whole);
});

test("an upload streamed past the limit: 413 naming it, every whole line before it stored", async () => {
  const line = (i: number) =>
    JSON.stringify({
      id: `over-${i}`,
      model: "m-over-upload",
      response: { text: `Which timezone? ${"q".repeat(900)} ${i}` },
    });
  const lines = Array.from({ length: 18_000 }, (_, i) => line(i));
  const body = Buffer.from(`${lines.join("\n")}\n`);
  expect(body.length).toBeGreaterThan(LIMIT);
  const whole = body.subarray(0, LIMIT).toString("utf8").split("\n").length - 1;
  const res = await postChunked("/api/upload?filename=over.jsonl&run=e2e-over-upload", body);
  expect(res.status).toBe(413);
  expect(res.json.error).toMatch(/over the upload limit of 16 MB/);
  expect(res.json.ingested).toBe(whole);
  expect(queryOne<{ n: number }>("SELECT trace_count AS n FROM runs WHERE name = 'e2e-over-upload'")?.n).toBe(
    whole,
  );
});

test("an upload cut off by a client that went away keeps every complete line and says where it stopped", async () => {
  const lines = Array.from({ length: 30_000 }, (_, i) =>
    JSON.stringify({
      id: `gone-${i}`,
      model: "m-gone",
      response: { text: `Which timezone should I use? (${i})` },
    }),
  );
  const sent = Buffer.from(`${lines.join("\n")}\n{"id": "gone-partial", "respo`);
  await postThenVanish("/api/upload?filename=gone.jsonl&run=e2e-gone", sent, sent.length + 100_000);
  const row = await until(() =>
    queryOne<{ status: string; ingested: number; rejected: number; unreadable: string }>(
      "SELECT status, ingested, rejected, unreadable FROM ingest_batches WHERE files = '[\"gone.jsonl\"]' AND status != 'running'",
    ),
  );
  expect(row).toMatchObject({ status: "failed", ingested: 30_000, rejected: 1 });
  const [stop] = JSON.parse(row.unreadable) as { reason: string; lines: number }[];
  expect(stop.lines).toBe(30_000);
  expect(stop.reason).toContain(
    `cut off after ${sent.length} bytes of the ${sent.length + 100_000} it declared`,
  );
  expect(queryOne<{ n: number }>("SELECT trace_count AS n FROM runs WHERE name = 'e2e-gone'")?.n).toBe(
    30_000,
  );
});

test("a fixture import cut off by a client that went away keeps every whole line", async () => {
  const lines = fixtureLines("e2e-gone-import", 3000, 2200);
  const sent = Buffer.from(`${lines.join("\n")}\n${lines[0].slice(0, 100)}`);
  await postThenVanish("/fixtures/import?filename=gone.jsonl&set=e2e-gone-import", sent, sent.length + 5000);
  // The import answers no one: wait until its count stops moving, then it must be every whole line.
  let last = -1;
  let steady = 0;
  await until(() => {
    const n = fixtureCount("e2e-gone-import");
    steady = n > 0 && n === last ? steady + 1 : 0;
    last = n;
    // Unchanged for 5 s (20 looks): the import has ended.
    return steady >= 20 ? n : undefined;
  }, 120_000);
  expect(fixtureCount("e2e-gone-import")).toBe(3000);
});

test("a form's request over 1 MB answers 413 with the limit, on every action, not 500", async ({
  request,
}) => {
  const db = openReadOnly();
  const traceId = (db.prepare("SELECT id FROM traces LIMIT 1").get() as { id: number }).id;
  db.close();
  const huge = "n".repeat(1024 * 1024 + 10);
  const eleven = "n".repeat(11 * 1024 * 1024);
  for (const [path, field, value] of [
    [`/traces/${traceId}`, "note", huge],
    ["/review", "reviewer", huge],
    ["/login", "reviewer", huge],
    ["/lexicon", "terms", eleven],
    ["/fixtures", "description", eleven],
  ] as const) {
    const res = await request.post(path, {
      headers: { "next-action": "0".repeat(42), "content-type": "text/plain;charset=UTF-8" },
      data: JSON.stringify([{ [field]: value }]),
    });
    expect(res.status(), path).toBe(413);
    expect(await res.text(), path).toMatch(/over the limit of 1 MB for a form/);
  }
});

test("POST to the icons answers 405 with a message; GET still serves them", async ({ request }) => {
  for (const path of ["/favicon.ico", "/icon.svg"]) {
    for (const method of ["POST", "PUT", "DELETE"]) {
      const res = await request.fetch(path, { method, data: "x" });
      expect(res.status(), `${method} ${path}`).toBe(405);
      expect(await res.text()).toContain(`${method} is not allowed on ${path}`);
    }
    expect((await request.get(path)).status()).toBe(200);
  }
});
