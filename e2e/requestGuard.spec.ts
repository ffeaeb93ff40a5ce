import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { dirname, join } from "node:path";
import { expect, test } from "@playwright/test";
import { openDb } from "../db/client";
import { deleteRun, getRunByName } from "../db/queries/runs";
import { cli, E2E_DB, queryOne } from "./pages/e2eDb";
import { freePort, rawRequest } from "./pages/servers";

/**
 * The default loopback server (no token) against hostile and malformed requests, through raw
 * HTTP so the Host, Origin and path go out exactly as written, and in Chromium.
 */
const PORT = Number(process.env.E2E_PORT ?? 3217);
const RECORD = `${JSON.stringify({ response: { text: "planted" } })}\n`;
const runExists = (name: string) => queryOne("SELECT 1 AS x FROM runs WHERE name = ?", name) !== undefined;

// The runs these tests make are deleted afterwards: other specs read the overview as the demo leaves it.
const MADE = ["100%", "%41%42", "AB", ".", "..", "no-origin", "same-origin"];
test.afterAll(() => {
  const db = openDb(E2E_DB);
  try {
    for (const name of MADE) {
      const run = getRunByName(db, name);
      if (run) deleteRun(db, run.id);
    }
  } finally {
    db.sqlite.close();
  }
});

test.describe("Host names (DNS rebinding)", () => {
  const refused = [
    "rebind.attacker.test",
    `rebind.attacker.test:${PORT}`,
    `REBIND.Attacker.test.:${PORT}`,
    `localhost.attacker.test:${PORT}`,
    `127.0.0.1.nip.io:${PORT}`,
    `0.0.0.0:${PORT}`,
    `[::]:${PORT}`,
    `[::ffff:127.0.0.1]:${PORT}`,
    `127.1:${PORT}`,
    `127.0.0.2:${PORT}`,
    `localhost:${PORT}@evil.test`,
  ];
  const served = [
    `127.0.0.1:${PORT}`,
    "127.0.0.1",
    `localhost:${PORT}`,
    `LOCALHOST:${PORT}`,
    `localhost.:${PORT}`,
    `[::1]:${PORT}`,
    "localhost:1",
  ];
  const routes: [string, string][] = [
    ["GET", "/"],
    ["GET", "/probes"],
    ["GET", "/runs/no-such-run/export"],
    ["POST", "/api/upload?filename=rebind.jsonl&run=rebind-planted"],
    ["POST", "/fixtures/import?filename=rebind.jsonl&set=rebind-planted"],
    ["GET", "/login"],
  ];

  for (const host of refused) {
    test(`refuses Host ${host} on every route`, async () => {
      for (const [method, path] of routes) {
        const res = await rawRequest(PORT, path, {
          method,
          headers: { host },
          body: method === "POST" ? RECORD : undefined,
        });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.body).toContain("ASSUMEPROBE_ALLOWED_HOSTS");
      }
      expect(runExists("rebind-planted")).toBe(false);
    });
  }

  test("answers the loopback names, with any port, in any case, with a trailing dot", async () => {
    for (const host of served) {
      const res = await rawRequest(PORT, "/probes", { headers: { host } });
      expect(res.status, host).toBe(200);
    }
  });

  test("checks an X-Forwarded-Host too", async () => {
    const evil = await rawRequest(PORT, "/probes", {
      headers: { "x-forwarded-host": "rebind.attacker.test" },
    });
    expect(evil.status).toBe(403);
    const ok = await rawRequest(PORT, "/probes", { headers: { "x-forwarded-host": `localhost:${PORT}` } });
    expect(ok.status).toBe(200);
  });
});

test.describe("cross-site requests", () => {
  const origins = [
    "http://evil.test",
    "null",
    `http://127.0.0.1:${PORT + 1}`,
    `http://localhost:${PORT}`,
    `http://127.0.0.1:${PORT}.evil.test`,
    "file://",
  ];

  test("refuse an Origin that is not this server on every route and method, whatever the content type", async () => {
    const cases: [string, string, Record<string, string>][] = [
      ["POST", "/api/upload?filename=csrf.jsonl&run=csrf-planted", { "content-type": "text/plain" }],
      [
        "POST",
        "/api/upload?filename=csrf.jsonl&run=csrf-planted",
        { "content-type": "application/x-ndjson" },
      ],
      ["POST", "/api/upload?filename=csrf.jsonl&run=csrf-planted", {}],
      ["PUT", "/api/upload?filename=csrf.jsonl&run=csrf-planted", { "content-type": "text/plain" }],
      ["OPTIONS", "/api/upload?filename=csrf.jsonl", { "access-control-request-method": "POST" }],
      ["POST", "/fixtures/import?filename=csrf.jsonl&set=csrf-planted", { "content-type": "text/plain" }],
      ["PUT", "/fixtures/import?filename=csrf.jsonl&set=csrf-planted", { "content-type": "text/plain" }],
      ["GET", "/runs/no-such-run/export", {}],
      ["POST", "/", { "content-type": "text/plain", "next-action": "x" }],
      ["POST", "/login", { "content-type": "application/x-www-form-urlencoded" }],
      ["GET", "/", {}],
    ];
    for (const origin of origins)
      for (const [method, path, headers] of cases) {
        const body = method === "POST" || method === "PUT" ? RECORD : undefined;
        const res = await rawRequest(PORT, path, { method, headers: { ...headers, origin }, body });
        expect(res.status, `${origin} ${method} ${path}`).toBe(403);
        expect(res.body).toContain("cross-site request refused");
      }
    expect(runExists("csrf-planted")).toBe(false);
  });

  test("take requests with no Origin (curl, the CLI) and from this server's own pages", async () => {
    const none = await rawRequest(PORT, "/api/upload?filename=plain.jsonl&run=no-origin", {
      method: "POST",
      body: RECORD,
    });
    expect(none.status).toBe(200);
    const same = await rawRequest(PORT, "/api/upload?filename=plain.jsonl&run=same-origin", {
      method: "POST",
      headers: { origin: `http://127.0.0.1:${PORT}`, "content-type": "text/plain" },
      body: RECORD,
    });
    expect(same.status).toBe(200);
    expect(runExists("no-origin") && runExists("same-origin")).toBe(true);
  });

  test("a page on another site cannot plant records from the browser", async ({ page }) => {
    const port = await freePort();
    const target = `http://127.0.0.1:${PORT}/api/upload?filename=evil.jsonl&run=browser-planted`;
    const html = `<!doctype html><title>evil</title>
      <form id="f" method="post" enctype="text/plain" action="${target}"><input name='{"response":{"text":"x"},"pad":"' value='"}'></form>
      <script>
        fetch(${JSON.stringify(target)}, { method: "POST", mode: "no-cors", headers: { "content-type": "text/plain" }, body: ${JSON.stringify(RECORD)} })
          .finally(() => { document.title = "sent"; document.getElementById("f").submit(); });
      </script>`;
    const evil: Server = createServer((_req, res) => res.end(html));
    await new Promise<void>((r) => evil.listen(port, "127.0.0.1", r));
    try {
      await page.goto(`http://localhost:${port}/`);
      await page.waitForURL(/api\/upload/);
      await expect(page.locator("body")).toContainText("cross-site request refused");
    } finally {
      evil.close();
    }
    expect(runExists("browser-planted")).toBe(false);
  });
});

test.describe("malformed requests", () => {
  test.beforeAll(() => {
    const file = join(dirname(E2E_DB), "odd-names.jsonl");
    writeFileSync(file, `${JSON.stringify({ id: "o1", response: { text: "Which timezone?" } })}\n`);
    for (const run of ["100%", "%41%42", "AB", ".", ".."])
      cli(["ingest", file, "--run", run, "--json", "--no-progress"]);
  });

  const long = "a".repeat(201);
  const traceId = () => queryOne<{ id: number }>("SELECT min(id) AS id FROM traces")?.id ?? 1;
  // Every route and page parameter: run names, trace ids, probe ids, filters, cursors, compare.
  const BAD: [string, number][] = [
    ["/runs/%F0%28%8C%28", 400],
    ["/runs/%F0%28%8C%28/export", 400],
    ["/runs/%E0%A4%A", 400],
    ["/runs/%ZZ/export", 400],
    [`/runs/AB?q=${long}`, 400],
    [`/runs/AB/export?q=${long}`, 400],
    ["/runs/AB?q=%FF", 400],
    ["/runs/AB?label=NOPE", 400],
    ["/runs/AB?label=ask", 400],
    ["/runs/AB?label=ASK&label=OMIT", 400],
    ["/runs/AB?reason=guess", 400],
    ["/runs/AB?flag=nope", 400],
    ["/runs/AB?gate=open", 400],
    ["/runs/AB?human=maybe", 400],
    ["/runs/AB?recorded=yes", 400],
    ["/runs/AB?probe=not%20a%20probe", 400],
    [`/runs/AB?field=${"f".repeat(201)}`, 400],
    ["/runs/AB?after=0", 400],
    ["/runs/AB?after=-5", 400],
    ["/runs/AB?after=abc", 400],
    ["/runs/AB?before=1.5", 400],
    ["/runs/AB?after=99999999999999999999", 400],
    ["/runs/AB/export?human=sometimes", 400],
    ["/runs/AB/export?field=nosuch", 400],
    ["/runs/no-such-run", 404],
    ["/runs/no-such-run/export", 404],
    ["/runs?name=..&label=NOPE", 400],
    ["/api/export", 400],
    ["/api/export?run=no-such-run", 404],
    ["/api/export?run=..&after=x", 400],
    ["/traces/abc", 404],
    ["/traces/0", 404],
    ["/traces/-1", 404],
    ["/traces/1e3", 404],
    ["/traces/99999999999999999", 404],
    ["/traces/999999999", 404],
    [`/traces/TRACE?q=${long}`, 400],
    ["/traces/TRACE?label=NOPE", 400],
    ["/traces/TRACE?before=x", 400],
    ["/traces/TRACE?q=%FF", 400],
    ["/probes/%F0%28", 400],
    ["/probes/not%20a%20probe", 404],
    ["/probes/no-such-probe", 404],
    ["/probes/schedule_window?version=0", 404],
    ["/probes/schedule_window?version=abc", 404],
    ["/probes/schedule_window?version=999", 404],
    [`/probes?q=${long}`, 400],
    [`/compare?a=${"r".repeat(1001)}&b=AB`, 400],
    ["/compare?a=no-such-run&b=AB", 404],
    ["/compare?a=%FF&b=AB", 400],
    [`/?probe=${long}`, 400],
    ["/?model=%FF", 400],
    ["/api/upload?format=csv&filename=x.jsonl", 400],
    ["/api/upload", 400],
  ];

  test("get a 4xx with a message, never a 500 or another resource", async () => {
    const id = traceId();
    for (const [raw, status] of BAD) {
      const path = raw.replace("TRACE", String(id));
      const method = path.startsWith("/api/upload") ? "POST" : "GET";
      const res = await rawRequest(PORT, path, { method, body: method === "POST" ? RECORD : undefined });
      expect(res.status, path).toBe(status);
      expect(res.body.trim().length, path).toBeGreaterThan(0);
      expect(res.body, path).not.toMatch(/\bat \S+ \(.*:\d+:\d+\)|TypeError|SqliteError|URIError/);
      if (status === 400 && !path.startsWith("/api/upload")) expect(res.body, path).toContain("bad request");
    }
  });

  test("a run name is decoded once: 100% and %41%42 export themselves, not an error or run AB", async () => {
    const pct = await rawRequest(PORT, "/runs/100%25/export");
    expect(pct.status).toBe(200);
    expect(JSON.parse(pct.body.split("\n")[0]).run).toBe("100%");
    const enc = await rawRequest(PORT, "/runs/%2541%2542/export");
    expect(enc.status).toBe(200);
    expect(
      enc.body
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).run),
    ).toEqual(["%41%42"]);
    const page = await rawRequest(PORT, "/runs/%2541%2542", { headers: { accept: "text/html" } });
    // The heading holds the name as the page shows identifiers (a span that may break it at separators).
    expect(page.body).toMatch(/data-testid="run-name"><span[^>]*>%41%42<\/span>/);
  });

  test("runs named . and .. open from the overview and export", async ({ page }) => {
    for (const name of [".", ".."]) {
      await page.goto("/");
      await page
        .locator(`[data-testid="run-row"][data-run=${JSON.stringify(name)}] a`)
        .first()
        .click();
      await expect(page.getByTestId("run-name")).toHaveText(name);
      await expect(page.getByTestId("trace-row")).toHaveCount(1);
      const href = await page.getByTestId("export-link").getAttribute("href");
      const res = await page.request.get(href ?? "");
      expect(JSON.parse((await res.text()).split("\n")[0]).run).toBe(name);
      // The filter form keeps the run.
      await page.getByTestId("filter-label").selectOption("ASK");
      await expect(page).toHaveURL(/label=ASK/);
      await expect(page.getByTestId("run-name")).toHaveText(name);
    }
  });
});

test("the run page's Export JSONL downloads the filter it shows, with responses and human labels", async ({
  page,
}) => {
  const run = "plover-lite-2/nightly-2026-11-29";
  await page.goto(`/runs/${encodeURIComponent(run)}?label=DRIFT`);
  const shown = Number(((await page.getByTestId("match-count").textContent()) ?? "").replace(/[^0-9]/g, ""));
  expect(shown).toBeGreaterThan(0);
  const total = queryOne<{ n: number }>("SELECT trace_count AS n FROM runs WHERE name = ?", run)?.n ?? 0;
  expect(total).toBeGreaterThan(shown);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("export-link").click(),
  ]);
  const rows = (await (await download.createReadStream()).toArray())
    .join("")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(rows.length).toBe(shown);
  for (const r of rows) {
    // A label filter with no field reads every field: each row has a DRIFT somewhere.
    expect(Object.values(r.fields as Record<string, { label: string }>).map((f) => f.label)).toContain(
      "DRIFT",
    );
    expect(r.run).toBe(run);
    expect(typeof r.response.text === "string" || r.response.text === null).toBe(true);
    expect(Array.isArray(r.response.tool_calls)).toBe(true);
  }
  expect(rows.some((r) => r.response.text)).toBe(true);

  // Human labels travel with the export, and the human filter is the page's.
  await page.goto("/runs/when2call-calibration?human=differs");
  const differs = Number(
    ((await page.getByTestId("match-count").textContent()) ?? "").replace(/[^0-9]/g, ""),
  );
  const [second] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("export-link").click(),
  ]);
  const labelled = (await (await second.createReadStream()).toArray())
    .join("")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(labelled.length).toBe(differs);
  for (const r of labelled) {
    const field = Object.keys(r.human).find((f) => r.fields[f] && r.fields[f].label !== r.human[f]);
    expect(field, JSON.stringify(r.human)).toBeDefined();
  }
});
