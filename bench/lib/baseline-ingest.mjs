/**
 * The bare ingest baseline of issue 3, run as its own process so its rate and peak RSS compare
 * with `assumeprobe ingest`: read lines, JSON.parse each, one prepared insert of the raw line and
 * four columns per line into a table with no index but the primary key, 5,000 lines per
 * transaction, with the pragmas db/client.ts sets (WAL, synchronous NORMAL, the same cache).
 *
 *   node bench/lib/baseline-ingest.mjs FILE DB     # prints {"lines": n, "seconds": s} on stdout
 */
import { createReadStream } from "node:fs";
import Database from "better-sqlite3";

const [file, dbPath] = process.argv.slice(2);
if (!file || !dbPath) {
  console.error("usage: node bench/lib/baseline-ingest.mjs FILE DB");
  process.exit(2);
}
const started = performance.now();
const db = new Database(dbPath);
db.pragma("journal_mode = WAL");
db.pragma("busy_timeout = 10000");
db.pragma("synchronous = NORMAL");
db.pragma("cache_size = -65536");
db.pragma("temp_store = MEMORY");
db.exec(`CREATE TABLE IF NOT EXISTS lines (
  id INTEGER PRIMARY KEY, raw TEXT NOT NULL, ext_id TEXT, run TEXT, model TEXT, label TEXT)`);
const insert = db.prepare("INSERT INTO lines(raw, ext_id, run, model, label) VALUES (?, ?, ?, ?, ?)");
const PER_TX = 5000;
let batch = [];
let lines = 0;
const writeBatch = db.transaction((rows) => {
  for (const r of rows) insert.run(r.raw, r.id, r.run, r.model, r.label);
});
const str = (v) => (typeof v === "string" ? v : v == null ? null : JSON.stringify(v));
const take = (raw) => {
  if (raw.length === 0) return;
  const v = JSON.parse(raw);
  batch.push({ raw, id: str(v.id), run: str(v.run), model: str(v.model), label: str(v.label) });
  lines++;
  if (batch.length >= PER_TX) {
    writeBatch(batch);
    batch = [];
  }
};
let rest = "";
for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20, encoding: "utf8" })) {
  const text = rest + chunk;
  let start = 0;
  for (;;) {
    const nl = text.indexOf("\n", start);
    if (nl === -1) break;
    take(text.slice(start, nl));
    start = nl + 1;
  }
  rest = text.slice(start);
}
take(rest);
if (batch.length) writeBatch(batch);
db.close();
console.log(JSON.stringify({ lines, seconds: (performance.now() - started) / 1000 }));
