/**
 * The scorer measured on real data it never learned from (issue 15): NVIDIA's When2Call test set
 * (fixtures/when2call/), whose follow-up questions and human labels were written independently of
 * this project.
 *
 * 1. A fresh database (`assumeprobe setup`, no demo).
 * 2. The file split in two by a hash of each record's question (lib/tuning/split.ts), so the four
 *    answers to a question, and a question asked with and without its tool, stay on one side:
 *    `when2call-train` and `when2call-measure`, each ingested with `--format when2call --run`.
 * 3. ASK recall and precision of the scorer against When2Call's labels (the held-out parameter of
 *    each record: a follow-up question is ASK, the call INJECT, the other two DRIFT), per run.
 * 4. `assumeprobe suggest --run when2call-train --apply`: suggestions learned from the train run's
 *    labels only, saved as a new lexicon version, terms for every field going to the `*` entry.
 * 5. `assumeprobe rescore when2call-measure when2call-train`, and the figures again.
 * 6. Steps 1 to 5 again in a second database with `suggest --no-any-field`: the same figures
 *    without the `*` entry, to show what it adds.
 *
 *   npm run bench:when2call
 *   npx tsx bench/when2call.ts --top 40      # how many suggestions --apply takes (default: all listed)
 *
 * The measure run's labels are never read before step 5's figures: nothing is tuned on them.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openDb } from "../db/client";
import { agreementCounts } from "../db/queries/agreement";
import { splitWhen2Call, WHEN2CALL_MEASURE_RUN, WHEN2CALL_TRAIN_RUN } from "../lib/tuning/split";
import { describeChange } from "../lib/tuning/types";
import { anyFieldAnalysis } from "./lib/anyField";
import { benchDir, CLI, ROOT } from "./lib/util";

const { values } = parseArgs({
  options: {
    top: { type: "string" },
    db: { type: "string" },
  },
});

const dir = benchDir();
let dbPath = values.db ?? join(dir, "when2call.db");
const env = { ...process.env, ASSUMEPROBE_DB: dbPath, ASSUMEPROBE_DEMO: "0" };

function cli(args: string[], quiet = false): string {
  console.log(`$ assumeprobe ${args.join(" ")}`);
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    env,
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  if (r.status !== 0 && r.status !== 1) {
    process.stderr.write(r.stderr);
    throw new Error(`assumeprobe ${args[0]} exited ${r.status}`);
  }
  if (!quiet) process.stdout.write(r.stdout);
  return r.stdout;
}

interface AskFigures {
  fields: number;
  human: number;
  ours: number;
  both: number;
  recall: number;
  precision: number;
}

/** ASK recall and precision of our labels against the human ones, over a run's labelled fields. */
function askFigures(run: string): AskFigures {
  const db = openDb(dbPath);
  try {
    let fields = 0;
    let human = 0;
    let ours = 0;
    let both = 0;
    for (const c of agreementCounts(db, { run })) {
      fields += c.n;
      if (c.human === "ASK") human += c.n;
      if (c.ours === "ASK") ours += c.n;
      if (c.human === "ASK" && c.ours === "ASK") both += c.n;
    }
    return { fields, human, ours, both, recall: both / human, precision: both / ours };
  } finally {
    db.sqlite.close();
  }
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const line = (label: string, f: AskFigures) =>
  `${label.padEnd(28)} recall ${pct(f.recall).padStart(6)} (${f.both}/${f.human})   precision ${pct(f.precision).padStart(6)} (${f.both}/${f.ours})   of ${f.fields} labelled fields`;

for (const s of ["", "-wal", "-shm"]) rmSync(`${dbPath}${s}`, { force: true });
cli(["setup"], true);

const source = join(ROOT, "fixtures", "when2call", "when2call_test_llm_judge.jsonl");
const split = splitWhen2Call(readFileSync(source, "utf8"));
if (split.errors.length > 0)
  throw new Error(`the When2Call file has lines without a question: ${JSON.stringify(split.errors)}`);
const trainFile = join(dir, "when2call-train.jsonl");
const measureFile = join(dir, "when2call-measure.jsonl");
writeFileSync(trainFile, `${split.train.join("\n")}\n`);
writeFileSync(measureFile, `${split.measure.join("\n")}\n`);
console.log(
  `split by a hash of each record's question: ${split.train.length} records to ${WHEN2CALL_TRAIN_RUN}, ${split.measure.length} to ${WHEN2CALL_MEASURE_RUN}`,
);
cli(["ingest", trainFile, "--format", "when2call", "--run", WHEN2CALL_TRAIN_RUN, "--json"], true);
cli(["ingest", measureFile, "--format", "when2call", "--run", WHEN2CALL_MEASURE_RUN, "--json"], true);

const before = { train: askFigures(WHEN2CALL_TRAIN_RUN), measure: askFigures(WHEN2CALL_MEASURE_RUN) };

// What limits a lexicon keyed by field name, measured before anything is saved (see bench/lib/anyField.ts).
const anyField = (() => {
  const db = openDb(dbPath);
  try {
    return anyFieldAnalysis(db, WHEN2CALL_TRAIN_RUN, WHEN2CALL_MEASURE_RUN);
  } finally {
    db.sqlite.close();
  }
})();
const names = (run: string) => {
  const db = openDb(dbPath);
  try {
    return new Set(agreementCounts(db, { run }).map((c) => c.field));
  } finally {
    db.sqlite.close();
  }
};
const trainNames = names(WHEN2CALL_TRAIN_RUN);
const measureNames = names(WHEN2CALL_MEASURE_RUN);
const unseen = [...measureNames].filter((f) => !trainNames.has(f));

const topArgs = values.top ? ["--top", values.top] : [];
// Without the `*` entry first, in a copy of the database as ingested: the same labels, learned the same way.
const t0 = performance.now();
const plainPath = join(dir, "when2call-no-any.db");
for (const s of ["", "-wal", "-shm"]) rmSync(`${plainPath}${s}`, { force: true });
{
  const db = openDb(dbPath);
  try {
    db.sqlite.exec(`VACUUM INTO '${plainPath.replaceAll("'", "''")}'`);
  } finally {
    db.sqlite.close();
  }
}
const withDb = (path: string, f: () => void) => {
  const was = dbPath;
  dbPath = path;
  env.ASSUMEPROBE_DB = path;
  try {
    f();
  } finally {
    dbPath = was;
    env.ASSUMEPROBE_DB = was;
  }
};
let withoutAny = { train: before.train, measure: before.measure };
withDb(plainPath, () => {
  cli(
    [
      "suggest",
      "--run",
      WHEN2CALL_TRAIN_RUN,
      "--no-any-field",
      "--apply",
      ...topArgs,
      "--by",
      "bench:when2call",
    ],
    true,
  );
  cli(["rescore", WHEN2CALL_MEASURE_RUN, WHEN2CALL_TRAIN_RUN], true);
  withoutAny = { train: askFigures(WHEN2CALL_TRAIN_RUN), measure: askFigures(WHEN2CALL_MEASURE_RUN) };
});
cli(["suggest", "--run", WHEN2CALL_TRAIN_RUN, ...topArgs]);
cli(["suggest", "--run", WHEN2CALL_TRAIN_RUN, "--apply", ...topArgs, "--by", "bench:when2call"]);
cli(["rescore", WHEN2CALL_MEASURE_RUN, WHEN2CALL_TRAIN_RUN], true);
cli(["lexicon", "list"]);

const after = { train: askFigures(WHEN2CALL_TRAIN_RUN), measure: askFigures(WHEN2CALL_MEASURE_RUN) };
const learnSeconds = (performance.now() - t0) / 1000;
console.log("");
console.log(line("train, before (learned from)", before.train));
console.log(line("train, after", after.train));
console.log(line("measure, before", before.measure));
console.log(line("measure, after", after.measure));
console.log(line("train, after, no * entry", withoutAny.train));
console.log(line("measure, after, no * entry", withoutAny.measure));
console.log(`learning, re-scoring and measuring both ways took ${learnSeconds.toFixed(0)} s`);
console.log(
  `target on the measured part: recall and precision both at least 85%: ${after.measure.recall >= 0.85 && after.measure.precision >= 0.85 ? "met" : "missed"}`,
);
console.log("");
console.log(
  `the measured part probes ${measureNames.size} field names, ${unseen.length} of which the train part never labels: terms learned for a field name cannot reach them`,
);
const a = anyField.measure;
console.log(
  `analysis, not a feature: one entry shared by every field name, learned the same way from the train part (${anyField.changes.map(describeChange).join("; ")}):`,
);
console.log(
  `  measure: recall ${pct(a.both / a.human)} (${a.both}/${a.human})   precision ${pct(a.both / a.ours)} (${a.both}/${a.ours})`,
);
