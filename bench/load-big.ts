/**
 * Builds (or reuses) bench:http's database of `--n` traces in one run without timing pages: the
 * first half of `bench:http`, for a machine that should stay quiet while the pages are timed later
 * (`npx tsx bench/http.ts --n N` then reuses it).
 *
 *   npx tsx bench/load-big.ts --n 10000000
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { BIG_RUN, loadBigRun } from "./lib/server";
import { benchDir, fmt, load } from "./lib/util";

const { values } = parseArgs({ options: { n: { type: "string", default: "1000000" } } });
const N = Number(values.n);
const dbPath = join(benchDir(), "big.db");
await loadBigRun(dbPath, { n: N, run: BIG_RUN, file: `big-${N}.jsonl` });
console.log(`database: ${fmt(statSync(dbPath).size / 1e6)} MB  [${load()}]`);
