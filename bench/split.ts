/**
 * Record splitting benchmark (issue 11, item 3): the splitter on the input that used to be
 * quadratic (a record that does not parse, followed by many indented lines ending in `}`) and on
 * pretty-printed records, at growing sizes. Linear work shows as a steady MB/s.
 *
 *   npx tsx bench/split.ts
 *
 * With `--tokenizer DIR` (a folder where @streamparser/json is installed) it also times that
 * library's tokenizer over the same gathered text, the alternative the issue names. On the first
 * input the tokenizer stops at the first syntax error (the second record's `{`), where the
 * splitter must go on gathering: its time there is only up to that point.
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { RecordSplitter } from "../lib/ingest/splitRecords";
import { fmt, load } from "./lib/util";

const { values } = parseArgs({ options: { tokenizer: { type: "string" } } });

const quadratic = (bytes: number) => {
  const lines = ['{"broken": '];
  let size = lines[0].length;
  for (let i = 0; size < bytes; i++) {
    const l = `  {"k${i}": ${i}}`;
    lines.push(l);
    size += l.length + 1;
  }
  return Buffer.from(`${lines.join("\n")}\n{"next": 1}\n`);
};

const pretty = (bytes: number) => {
  const items: unknown[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    items.push({ i, text: "Which time zone? {see}", args: { timezone: "UTC" } });
    size += 90;
  }
  return Buffer.from(`${JSON.stringify({ items }, null, 2)}\n`);
};

function time(input: Buffer): { ms: number; records: number } {
  let best = Number.POSITIVE_INFINITY;
  let records = 0;
  for (let r = 0; r < 3; r++) {
    const t0 = performance.now();
    const s = new RecordSplitter(64 << 20);
    records = 0;
    for (let at = 0; at < input.length; at += 1 << 16)
      records += s.push(input.subarray(at, at + (1 << 16))).length;
    records += s.end().length;
    best = Math.min(best, performance.now() - t0);
  }
  return { ms: best, records };
}

/** JSON.parse of the whole input (the one parse a gathered record costs), best of three. */
function timeParse(input: Buffer): number {
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < 3; r++) {
    const t0 = performance.now();
    JSON.parse(input.toString("utf8"));
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

type Tokenizer = new () => { write(b: Uint8Array): void; onToken: (t: unknown) => void; end(): void };
let tokenizer: Tokenizer | null = null;
if (values.tokenizer) {
  const req = createRequire(join(values.tokenizer, "package.json"));
  tokenizer = (req("@streamparser/json") as { Tokenizer: Tokenizer }).Tokenizer;
}

function timeTokenizer(input: Buffer): number {
  const T = tokenizer as Tokenizer;
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < 3; r++) {
    const t0 = performance.now();
    const t = new T();
    let n = 0;
    t.onToken = () => {
      n++;
    };
    try {
      for (let at = 0; at < input.length; at += 1 << 16) t.write(input.subarray(at, at + (1 << 16)));
    } catch {
      // the quadratic case's second record makes the tokenizer fail: time what it did up to there
    }
    best = Math.min(best, performance.now() - t0);
    if (n < 0) console.log(n);
  }
  return best;
}

console.log(`record splitting  [${load()}]  node ${process.version}`);
for (const [name, make] of [
  ["unparsable record, indented lines ending in }", quadratic],
  ["one pretty-printed record", pretty],
] as const) {
  console.log(`\n${name}`);
  for (const kb of [10, 160, 1024, 8192]) {
    const input = make(kb * 1024);
    const r = time(input);
    let line = `  ${fmt(kb).padStart(6)} KB: ${fmt(r.ms, 1).padStart(7)} ms, ${fmt(input.length / 1e3 / r.ms, 0).padStart(4)} MB/s, ${r.records} records`;
    if (r.records === 1) line += `; of which JSON.parse ${fmt(timeParse(input), 1)} ms`;
    if (tokenizer) line += `; @streamparser/json tokenizer alone ${fmt(timeTokenizer(input), 1)} ms`;
    console.log(line);
  }
}
