/**
 * Stress run (issue 11, "Done when"): for a bounded time, against a real `next start` server on
 * a fresh temporary database (loopback only), at once:
 *   - command-line ingests (`assumeprobe ingest FILE --json`), one file after another, 2 at a time,
 *   - uploads (`POST /api/upload`),
 *   - page requests (overview, run pages with filters and a search, trace pages, /ingests, probes),
 *   - exports (`GET /runs/NAME/export`, read to the end),
 *   - fixture imports (`POST /fixtures/import`), each into a set of its own, the first over 12 MB
 *     (past the 10 MB a proxy would keep of a body),
 *   - with a lexicon at its limits (saved first through `assumeprobe lexicon edit`: 500 terms in
 *     each of 10 fields, 5,000 in all), the tuning pages (`/lexicon`, a probe's tune page) beside
 *     `/probes`,
 * then prints the requests and errors of each kind, their p50/p95 latency, and the records
 * stored against the records sent (every record has an id of its own, so the two must be equal),
 * the same for fixture lines and lexicon terms.
 *
 *   npm run stress                      # 60 s
 *   npx tsx bench/stress.ts --seconds 20 --browsers 4
 *   npx tsx bench/stress.ts --only browse,upload   # some of the loads only
 *
 * Bounded in time (--seconds, and a cap on files sent) and in size; the server, its database and
 * the generated files go to a temporary folder that is removed at the end.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { traceLines } from "./lib/generate";
import { CLI, ensureCliBundle, fmt, load, percentile, ROOT, runNode } from "./lib/util";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "60" },
    browsers: { type: "string", default: "3" },
    "cli-records": { type: "string", default: "4000" },
    "upload-records": { type: "string", default: "2000" },
    "fixture-lines": { type: "string", default: "1000" },
    /** Which loads to run (all by default): to tell which one slows the others. */
    only: { type: "string", default: "cli,upload,browse,export,lexicon,fixtures" },
    /** The server's port (default: any free one). */
    port: { type: "string", default: "0" },
  },
});
const ONLY = new Set(values.only.split(","));
const SECONDS = Number(values.seconds);
const BROWSERS = Number(values.browsers);
const CLI_RECORDS = Number(values["cli-records"]);
const UPLOAD_RECORDS = Number(values["upload-records"]);
const FIXTURE_LINES = Number(values["fixture-lines"]);
/** No more files than this of each kind, whatever the time allows. */
const MAX_FILES = 200;

const dir = mkdtempSync(join(tmpdir(), "assumeprobe-stress-"));
const dbPath = join(dir, "stress.db");

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

interface Kind {
  ok: number;
  errors: number;
  ms: number[];
  firstErrors: string[];
}
const kinds = new Map<string, Kind>();
function record(kind: string, ms: number, error?: string): void {
  let k = kinds.get(kind);
  if (!k) {
    k = { ok: 0, errors: 0, ms: [], firstErrors: [] };
    kinds.set(kind, k);
  }
  k.ms.push(ms);
  if (error === undefined) k.ok++;
  else {
    k.errors++;
    if (k.firstErrors.length < 3) k.firstErrors.push(error.slice(0, 300));
  }
}

let sent = 0;
const runsSent = new Map<string, number>();
const noteSent = (run: string, n: number) => {
  sent += n;
  runsSent.set(run, (runsSent.get(run) ?? 0) + n);
};

function file(run: string, n: number): string {
  const path = join(dir, `${run}.jsonl`);
  writeFileSync(
    path,
    `${[...traceLines(n, { run, model: "tern-7b-instruct", idPrefix: run })].join("\n")}\n`,
  );
  return path;
}

const deadline = () => Date.now() >= stopAt;
let stopAt = 0;

async function cliIngester(worker: number): Promise<void> {
  for (let i = 0; i < MAX_FILES && !deadline(); i++) {
    const run = `stress-cli-${worker}-${i}`;
    const path = file(run, CLI_RECORDS);
    const t0 = performance.now();
    const r = await runNode([CLI, "ingest", path, "--json", "--no-progress"], { ASSUMEPROBE_DB: dbPath });
    const ms = performance.now() - t0;
    let error: string | undefined;
    try {
      const s = JSON.parse(r.stdout.trim().split("\n").at(-1) ?? "");
      if (r.code !== 0 || s.records !== CLI_RECORDS || s.rejected !== 0)
        error = `exit ${r.code}: ${r.stderr || JSON.stringify(s).slice(0, 200)}`;
    } catch {
      error = `exit ${r.code}: ${r.stderr}`;
    }
    noteSent(run, CLI_RECORDS);
    record("ingest (CLI)", ms, error);
  }
}

async function uploader(base: string): Promise<void> {
  for (let i = 0; i < MAX_FILES && !deadline(); i++) {
    const run = `stress-upload-${i}`;
    const body = `${[...traceLines(UPLOAD_RECORDS, { run, model: "tern-7b-instruct", idPrefix: run })].join("\n")}\n`;
    const t0 = performance.now();
    let error: string | undefined;
    try {
      const res = await fetch(`${base}/api/upload?filename=${run}.jsonl`, { method: "POST", body });
      const s = (await res.json()) as { records?: number; rejected?: number; error?: string };
      if (res.status !== 200 || s.records !== UPLOAD_RECORDS || s.rejected !== 0)
        error = `HTTP ${res.status}: ${s.error ?? JSON.stringify(s).slice(0, 200)}`;
    } catch (e) {
      error = String(e);
    }
    noteSent(run, UPLOAD_RECORDS);
    record("upload", performance.now() - t0, error);
  }
}

/** A run and trace ids to browse: the demo's runs, then whatever the stress ingests stored. */
function browseTargets(): { runs: string[]; traces: number[] } {
  const db = new Database(dbPath, { readonly: true });
  try {
    const runs = db
      .prepare("SELECT name FROM runs ORDER BY trace_count DESC LIMIT 8")
      .pluck()
      .all() as string[];
    const traces = db.prepare("SELECT id FROM traces ORDER BY random() LIMIT 50").pluck().all() as number[];
    return { runs, traces };
  } finally {
    db.close();
  }
}

async function get(base: string, kind: string, path: string, readAll = false): Promise<void> {
  const t0 = performance.now();
  try {
    const res = await fetch(`${base}${path}`, { headers: { "accept-encoding": "gzip" } });
    if (readAll) {
      const reader = res.body?.getReader();
      if (reader) for (let r = await reader.read(); !r.done; r = await reader.read());
    } else await res.arrayBuffer();
    record(kind, performance.now() - t0, res.status === 200 ? undefined : `HTTP ${res.status} for ${path}`);
  } catch (e) {
    record(kind, performance.now() - t0, `${path}: ${e}`);
  }
}

async function browser(base: string, n: number): Promise<void> {
  let targets = browseTargets();
  for (let i = 0; !deadline(); i++) {
    if (i % 50 === 0) targets = browseTargets();
    const run = encodeURIComponent(targets.runs[(i + n) % targets.runs.length] ?? "none");
    const trace = targets.traces[(i * 7 + n) % Math.max(targets.traces.length, 1)];
    const pages: [string, string][] = [
      ["page /", "/"],
      ["page /runs/NAME", `/runs/${run}`],
      ["page /runs/NAME filtered", `/runs/${run}?field=timezone&label=INJECT`],
      ["page /runs/NAME search", `/runs/${run}?q=timezone`],
      ["page /traces/ID", `/traces/${trace}`],
      ["page /ingests", "/ingests"],
      ["page /probes", "/probes"],
    ];
    const [kind, path] = pages[(i + n) % pages.length];
    await get(base, kind, path);
  }
}

async function exporter(base: string): Promise<void> {
  while (!deadline()) {
    const { runs } = browseTargets();
    await get(
      base,
      "export /runs/NAME/export",
      `/runs/${encodeURIComponent(runs[0] ?? "none")}/export`,
      true,
    );
  }
}

// ---- Fixture imports ------------------------------------------------------------------------------

let fixturesSent = 0;

/** `n` distinct fixture lines for `set`, about `size` bytes each, made from a demo fixture's export line. */
async function fixtureFile(template: Record<string, unknown>, set: string, n: number, size: number) {
  const { fixtureIdentity } = await import("../lib/fixtures/world");
  const t = template as { world: never; response: Record<string, unknown>; field: string };
  const pad = "f".repeat(Math.max(0, size - JSON.stringify(template).length));
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const response = { ...t.response, text: `Which region are you in? ${set} ${i} ${pad}` };
    const identity = fixtureIdentity(t.world, response as never, t.field);
    lines.push(JSON.stringify({ ...template, set, identity, response, source: null }));
  }
  return `${lines.join("\n")}\n`;
}

async function fixtureImporter(base: string): Promise<void> {
  const exported = await runNode([CLI, "fixtures", "export", "demo-regressions"], { ASSUMEPROBE_DB: dbPath });
  const template = JSON.parse(exported.stdout.split("\n")[0]) as Record<string, unknown>;
  for (let i = 0; i < MAX_FILES && !deadline(); i++) {
    const set = `stress-fixtures-${i}`;
    // The first is over 12 MB: read whole, not the 10 MB a proxy keeps.
    const [n, size] = i === 0 ? [6000, 2200] : [FIXTURE_LINES, 1200];
    const body = await fixtureFile(template, set, n, size);
    const t0 = performance.now();
    let error: string | undefined;
    try {
      const res = await fetch(`${base}/fixtures/import?filename=${set}.jsonl&set=${set}`, {
        method: "POST",
        body,
      });
      const s = (await res.json()) as { lines?: number; added?: number; rejected?: number; error?: string };
      if (res.status !== 200 || s.lines !== n || s.added !== n || s.rejected !== 0)
        error = `HTTP ${res.status}: ${s.error ?? JSON.stringify(s).slice(0, 200)}`;
    } catch (e) {
      error = String(e);
    }
    fixturesSent += n;
    record(i === 0 ? "fixture import (12 MB)" : "fixture import", performance.now() - t0, error);
  }
}

function fixturesStored(): number {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db
      .prepare(
        "SELECT count(*) FROM fixtures f JOIN fixture_sets s ON s.id = f.set_id WHERE s.name LIKE 'stress-fixtures-%'",
      )
      .pluck()
      .get() as number;
  } finally {
    db.close();
  }
}

// ---- A lexicon at its limits, and the tuning pages under load ------------------------------------

const LEXICON_FIELDS = ["timezone", "severity", ...Array.from({ length: 8 }, (_, i) => `field_${i}`)];
let lexiconSent = 0;

/** Saves a lexicon at the limits through the real writer (`lexicon edit`), as a user would. */
async function lexiconAtLimits(): Promise<void> {
  const { TERM_LIMITS } = await import("../lib/lexicon/limits");
  const args = ["lexicon", "edit", "--by", "stress", "--json"];
  for (const field of LEXICON_FIELDS)
    for (let i = 0; i < TERM_LIMITS.termsPerField; i++) args.push("--add", `${field}=${field} phrase ${i}`);
  lexiconSent = LEXICON_FIELDS.length * TERM_LIMITS.termsPerField;
  const t0 = performance.now();
  const r = await runNode([CLI, ...args], { ASSUMEPROBE_DB: dbPath });
  record(
    "lexicon edit (5,000 terms)",
    performance.now() - t0,
    r.code === 0 ? undefined : `exit ${r.code}: ${r.stderr}`,
  );
}

/** The lexicon's terms as stored now, for sent = stored. */
function lexiconStored(): number {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db
      .prepare(
        "SELECT coalesce(sum(json_array_length(terms)), 0) FROM lexicon_entries WHERE version = (SELECT max(version) FROM lexicon_versions)",
      )
      .pluck()
      .get() as number;
  } finally {
    db.close();
  }
}

async function tuner(base: string): Promise<void> {
  const pages: [string, string][] = [
    ["page /lexicon (at limits)", "/lexicon"],
    ["page /probes/ID/tune", "/probes/schedule_window/tune"],
    ["page /probes (beside tuning)", "/probes"],
  ];
  for (let i = 0; !deadline(); i++) await get(base, pages[i % pages.length][0], pages[i % pages.length][1]);
}

// ------------------------------------------------------------------------------------------------

async function waitForServer(base: string, server: ChildProcess): Promise<void> {
  const until = Date.now() + 600_000;
  while (Date.now() < until) {
    if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode})`);
    try {
      if ((await fetch(`${base}/probes`)).status === 200) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("the server did not start in 10 minutes");
}

async function main(): Promise<void> {
  ensureCliBundle();
  const port = Number(values.port) || (await freePort());
  const base = `http://127.0.0.1:${port}`;
  console.log(`stress: ${SECONDS} s against next start on ${base}, database ${dbPath}  [${load()}]`);
  // npm start's own path (migrations, demo data, a build when the sources are newer), loopback only.
  const server = spawn(process.execPath, [join(ROOT, "scripts", "start.js")], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: "127.0.0.1",
      PORT: String(port),
      ASSUMEPROBE_DB: dbPath,
      ASSUMEPROBE_TOKEN: "",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    await waitForServer(base, server);
    if (ONLY.has("lexicon")) await lexiconAtLimits();
    // Warm the pages up once, so the figures are of a running server, not of its first compiles.
    stopAt = Date.now() + 3000;
    await browser(base, 0);
    const saved = kinds.get("lexicon edit (5,000 terms)");
    kinds.clear();
    if (saved) kinds.set("lexicon edit (5,000 terms)", saved);
    const t0 = Date.now();
    stopAt = t0 + SECONDS * 1000;
    await Promise.all([
      ...(ONLY.has("cli") ? [cliIngester(1), cliIngester(2)] : []),
      ...(ONLY.has("upload") ? [uploader(base)] : []),
      ...(ONLY.has("export") ? [exporter(base)] : []),
      ...(ONLY.has("browse") ? Array.from({ length: BROWSERS }, (_, i) => browser(base, i)) : []),
      ...(ONLY.has("lexicon") ? [tuner(base)] : []),
      ...(ONLY.has("fixtures") ? [fixtureImporter(base)] : []),
    ]);
    const took = (Date.now() - t0) / 1000;
    report(took);
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    rmSync(dir, { recursive: true, force: true });
  }
}

function report(took: number): void {
  const db = new Database(dbPath, { readonly: true });
  const stored = db
    .prepare("SELECT count(*) FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name LIKE 'stress-%'")
    .pluck()
    .get() as number;
  const rejected = db
    .prepare("SELECT coalesce(sum(rejected_count), 0) FROM runs WHERE name LIKE 'stress-%'")
    .pluck()
    .get() as number;
  const unfinished = db
    .prepare("SELECT count(*) FROM ingest_batches WHERE status <> 'done'")
    .pluck()
    .get() as number;
  db.close();
  console.log(`\n${fmt(took, 1)} s  [${load()}]`);
  console.log(
    `${"what".padEnd(28)} ${"requests".padStart(8)} ${"errors".padStart(6)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)}`,
  );
  let total = 0;
  let errors = 0;
  for (const [name, k] of [...kinds].sort()) {
    total += k.ok + k.errors;
    errors += k.errors;
    console.log(
      `${name.padEnd(28)} ${fmt(k.ok + k.errors).padStart(8)} ${fmt(k.errors).padStart(6)} ${fmt(percentile(k.ms, 50)).padStart(8)} ${fmt(percentile(k.ms, 95)).padStart(8)}`,
    );
  }
  console.log(`${"all".padEnd(28)} ${fmt(total).padStart(8)} ${fmt(errors).padStart(6)}`);
  console.log(
    `records sent ${fmt(sent)}, stored ${fmt(stored)} (${stored === sent ? "equal" : "DIFFERENT"}); rejected ${fmt(rejected)}; ingests not done: ${unfinished}`,
  );
  let lexiconOk = true;
  if (ONLY.has("lexicon")) {
    const terms = lexiconStored();
    lexiconOk = terms === lexiconSent;
    console.log(
      `lexicon terms sent ${fmt(lexiconSent)}, stored ${fmt(terms)} (${lexiconOk ? "equal" : "DIFFERENT"})`,
    );
  }
  let fixturesOk = true;
  if (ONLY.has("fixtures")) {
    const lines = fixturesStored();
    fixturesOk = lines === fixturesSent;
    console.log(
      `fixture lines sent ${fmt(fixturesSent)}, stored ${fmt(lines)} (${fixturesOk ? "equal" : "DIFFERENT"})`,
    );
  }
  for (const [name, k] of kinds) for (const e of k.firstErrors) console.log(`  error (${name}): ${e}`);
  if (errors > 0 || stored !== sent || !lexiconOk || !fixturesOk) process.exitCode = 1;
}

await main();
