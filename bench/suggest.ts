/**
 * Suggestion time over 100,000 human-labelled fields (issue 15; target under 5 s).
 *
 * 1. 60,000 generated replies to the built-in probes (bench/lib/labelled.ts), each probed field
 *    with an imported human label: 100,000 labelled fields (schedule_window and open_incident
 *    probe two fields, deploy_service one). Ingested once into a database kept for later runs.
 * 2. In this process, three times: the suggestions of every run (suggestFor: reading the labelled
 *    fields in scope, scoring each as a re-score would, the greedy ranking), without what-ifs, then
 *    once with the what-if of each suggestion.
 * 3. The command a user runs, `assumeprobe suggest --json`, end to end (a new process, what-ifs
 *    included).
 *
 *   npm run bench:suggest
 *   npx tsx bench/suggest.ts --records 60000 --rounds 3
 *
 * The load average is printed with every figure: repeat when the 1-minute load is above ~1.5.
 */
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openDb } from "../db/client";
import { suggestFor } from "../db/queries/suggest";
import { describeChange } from "../lib/tuning/types";
import { labelledRecords } from "./lib/labelled";
import { benchDir, CLI, ensureCliBundle, fmt, load, median, runNode, writeLines } from "./lib/util";

const { values } = parseArgs({
  options: {
    records: { type: "string", default: "60000" },
    rounds: { type: "string", default: "3" },
  },
});
const RECORDS = Number(values.records);
const ROUNDS = Number(values.rounds);
const RUN = "bench-labelled";

const dir = benchDir();
const dbPath = join(dir, `suggest-${RECORDS}.db`);
const file = join(dir, `suggest-${RECORDS}.jsonl`);

ensureCliBundle();
if (!existsSync(dbPath)) {
  console.log(`generating ${fmt(RECORDS)} labelled replies and ingesting them (once; kept as ${dbPath})`);
  writeLines(
    file,
    (function* () {
      for (const r of labelledRecords(RECORDS, { run: RUN })) yield JSON.stringify(r);
    })(),
  );
  const tmp = `${dbPath}.partial`;
  for (const s of ["", "-wal", "-shm"]) rmSync(`${tmp}${s}`, { force: true });
  const ing = await runNode([CLI, "ingest", file, "--json", "--no-progress"], {
    ASSUMEPROBE_DB: tmp,
    ASSUMEPROBE_DEMO: "0",
  });
  if (ing.code !== 0) throw new Error(`ingest failed: ${ing.stderr.slice(-2000)}`);
  console.log(`  ingested in ${ing.seconds.toFixed(1)} s`);
  const db = openDb(tmp);
  db.sqlite.pragma("wal_checkpoint(TRUNCATE)");
  db.sqlite.close();
  const { renameSync } = await import("node:fs");
  renameSync(tmp, dbPath);
}

const db = openDb(dbPath);
const totals: number[] = [];
let last: ReturnType<typeof suggestFor> | null = null;
for (let i = 0; i < ROUNDS; i++) {
  const t0 = performance.now();
  last = suggestFor(db, { scope: { runs: [], sets: [] }, whatIf: false });
  const ms = performance.now() - t0;
  totals.push(ms);
  console.log(
    `round ${i + 1}: ${fmt(last.counted.fields)} labelled fields, ${last.suggestions.length} suggestions in ${fmt(ms)} ms (read and score ${fmt(last.ms.read)} ms, rank ${fmt(last.ms.rank)} ms)  [${load()}]`,
  );
}
const withWhatIf = suggestFor(db, { scope: { runs: [], sets: [] } });
db.sqlite.close();
if (last)
  for (const s of last.suggestions.slice(0, 5))
    console.log(`  ${describeChange(s.change)}: fixes ${s.fixes}, breaks ${s.breaks}`);
console.log(
  `with the what-if of each of the ${withWhatIf.suggestions.length} suggestions: ${fmt(withWhatIf.ms.read + withWhatIf.ms.rank + withWhatIf.ms.whatIf)} ms (what-ifs ${fmt(withWhatIf.ms.whatIf)} ms)`,
);
const cli = await runNode([CLI, "suggest", "--json"], { ASSUMEPROBE_DB: dbPath }, "/dev/null");
if (cli.code !== 0) throw new Error(`assumeprobe suggest failed: ${cli.stderr.slice(-2000)}`);
console.log(
  `assumeprobe suggest --json, a new process, what-ifs included: ${cli.seconds.toFixed(2)} s, peak RSS ${cli.peakRssMb?.toFixed(0) ?? "?"} MB  [${load()}]`,
);
const m = median(totals) / 1000;
console.log(
  `median suggestion time over ${fmt(last?.counted.fields ?? 0)} labelled fields: ${m.toFixed(2)} s (target < 5 s: ${m < 5 ? "met" : "missed"})`,
);
