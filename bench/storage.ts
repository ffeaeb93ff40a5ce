/**
 * Storage benchmark (issue 28): the database's size against the JSONL it was ingested from.
 *
 * For each corpus, `assumeprobe ingest` into a fresh database, a checkpoint that truncates the
 * write-ahead log, then the database, WAL and shared-memory files' bytes over the input's bytes
 * (target <= 1.0x, goal 0.5x), with each table's and index's share (SQLite's dbstat) and the big
 * columns' bytes. Corpora:
 *   - generated: bench:ingest's generated run (bench/lib/generate.ts);
 *   - varied: the same records with a text of their own appended to every response (no two alike:
 *     words drawn from the generator's vocabulary and numbers), so blocks cannot lean on repeats;
 *   - when2call: the When2Call test set (fixtures/when2call), four traces a line.
 * Then, for the generated corpus, the same database with its originals put back inline (as a
 * release before blocks stored them), `assumeprobe db pack` on it and `db compact`, timed.
 *
 *   npm run bench:storage                    # 200,000 generated lines
 *   npx tsx bench/storage.ts --lines 50000
 */
import { copyFileSync, existsSync, mkdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { ORIGINAL_OF, registerOriginalFunctions } from "../db/queries/originals";
import { Rng } from "../lib/generate/rng";
import { traceLines, vocabWord } from "./lib/generate";
import { benchDir, CLI, ensureCliBundle, fmt, load, ROOT, runNode, writeLines } from "./lib/util";

const { values } = parseArgs({
  options: {
    lines: { type: "string", default: "200000" },
    "no-pack": { type: "boolean", default: false },
  },
});
const LINES = Number(values.lines);

function* varied(n: number): Generator<string> {
  const rng = new Rng("varied");
  let k = 0;
  for (const line of traceLines(n, { run: "bench-varied", model: "tern-7b-instruct" })) {
    const words = Array.from({ length: rng.int(12, 40) }, () => vocabWord(rng.int(0, 2999)));
    const own = `${words.join(" ")} #${(k++).toString(36)} ${rng.int(0, 1e9)}`;
    const rec = JSON.parse(line);
    rec.note = own;
    if (rec.response?.text) rec.response.text = `${rec.response.text} ${own}`;
    yield JSON.stringify(rec);
  }
}

function fileBytes(db: string): { db: number; wal: number; shm: number } {
  const size = (p: string) => (existsSync(p) ? statSync(p).size : 0);
  return { db: size(db), wal: size(`${db}-wal`), shm: size(`${db}-shm`) };
}

function breakdown(path: string): string[] {
  const db = new Database(path);
  registerOriginalFunctions(db);
  try {
    db.pragma("wal_checkpoint(TRUNCATE)");
    const rows = db
      .prepare("SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC LIMIT 8")
      .all() as { name: string; bytes: number }[];
    const col = (c: string) =>
      (db
        .prepare(`SELECT coalesce(sum(length(CAST(${c} AS BLOB))), 0) FROM traces`)
        .pluck()
        .get() as number) / 1e6;
    return [
      `    tables and indexes: ${rows.map((r) => `${r.name} ${fmt(r.bytes / 1e6, 1)}`).join(", ")} MB`,
      `    columns: original inline ${fmt(col("original"), 1)}, originals as read ${fmt(col(ORIGINAL_OF), 1)}, result ${fmt(col("result"), 1)}, response ${fmt(col("response"), 1)}, labels ${fmt(col("labels"), 1)} MB`,
    ];
  } finally {
    db.close();
  }
}

async function measure(name: string, file: string, args: string[] = []): Promise<string> {
  const dir = join(benchDir(), "storage", name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const db = join(dir, "bench.db");
  const r = await runNode([CLI, "ingest", file, "--no-progress", "--json", ...args], { ASSUMEPROBE_DB: db });
  if (r.code !== 0) throw new Error(`ingest ${name}: exit ${r.code}\n${r.stderr.slice(0, 2000)}`);
  const summary = JSON.parse(r.stdout.trim().split("\n").pop() ?? "{}");
  const lines = breakdown(db);
  const f = fileBytes(db);
  const input = statSync(file).size;
  const total = f.db + f.wal + f.shm;
  console.log(
    `${name}: ${fmt(summary.ingested)} traces from ${fmt(input / 1e6, 1)} MB of JSONL: database ${fmt(total / 1e6, 1)} MB = ${fmt(total / input, 2)}x  (ingest ${fmt(r.seconds, 1)} s)  [${load()}]`,
  );
  for (const l of lines) console.log(l);
  return db;
}

async function packOld(db: string): Promise<void> {
  const old = join(benchDir(), "storage", "old.db");
  for (const s of ["", "-wal", "-shm"]) rmSync(`${old}${s}`, { force: true });
  copyFileSync(db, old);
  const sqlite = new Database(old);
  registerOriginalFunctions(sqlite);
  sqlite.exec(`UPDATE traces SET original = ${ORIGINAL_OF}, original_block = NULL, original_at = NULL,
    original_len = NULL; DELETE FROM original_blocks; VACUUM`);
  sqlite.close();
  const before = fileBytes(old).db;
  const pack = await runNode([CLI, "db", "pack", "--json"], { ASSUMEPROBE_DB: old });
  const compact = await runNode([CLI, "db", "compact", "--json"], { ASSUMEPROBE_DB: old });
  if (pack.code !== 0 || compact.code !== 0) throw new Error(`${pack.stderr}${compact.stderr}`);
  const p = JSON.parse(pack.stdout.trim().split("\n").pop() ?? "{}");
  console.log(
    `db pack of the generated database with its originals inline (${fmt(before / 1e6, 1)} MB): ${fmt(p.packed)} traces in ${fmt(pack.seconds, 1)} s (${fmt(p.packed / pack.seconds)} traces/s); db compact ${fmt(compact.seconds, 1)} s, ${fmt(fileBytes(old).db / 1e6, 1)} MB after  [${load()}]`,
  );
}

async function main(): Promise<void> {
  ensureCliBundle();
  console.log(`storage benchmark  [${load()}]  node ${process.version}`);
  const generated = join(benchDir(), `storage-generated-${LINES}.jsonl`);
  if (!existsSync(generated))
    writeLines(generated, traceLines(LINES, { run: "bench-ingest", model: "tern-7b-instruct" }));
  const variedFile = join(benchDir(), `storage-varied-${LINES}.jsonl`);
  if (!existsSync(variedFile)) writeLines(variedFile, varied(LINES));
  const db = await measure("generated", generated);
  await measure("varied", variedFile);
  await measure("when2call", join(ROOT, "fixtures", "when2call", "when2call_test_llm_judge.jsonl"), [
    "--format",
    "when2call",
  ]);
  if (!values["no-pack"]) await packOld(db);
}

await main();
