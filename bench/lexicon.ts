/**
 * Lexicon matching benchmark (issue 20): scoring stays linear in the text and in the number of
 * lexicon terms, and the mutation check in terms x fixtures.
 *
 * (a) scoreTrace on replies with no call (the path that reads ask terms) for schedule_window with
 *     no lexicon, 500 terms a field, the limits (5,000 terms over 10 fields), and a lexicon saved
 *     before the limits (5,000 and 20,000 terms in one field): compile time and traces per second.
 * (b) one 1 MB reply against 0, 500 and 5,000 terms: milliseconds (linear in the text).
 * (c) the mutation check of a lexicon at its limits against N fixtures, in a temporary database.
 *
 *   npm run bench:lexicon
 *   npx tsx bench/lexicon.ts --traces 20000 --fixtures 2000
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openDb } from "../db/client";
import { fixtureTransaction, writableSet } from "../db/queries/fixtureSets";
import { writeFixture } from "../db/queries/fixtures";
import { saveLexicon } from "../db/queries/lexicon";
import { lexiconMutationCheck } from "../db/queries/mutation";
import { syncBuiltinProbes } from "../db/queries/probes";
import { worldSnapshot } from "../lib/fixtures/world";
import type { Lexicon, LexiconEntry } from "../lib/lexicon/lexicon";
import { builtinProbes } from "../lib/probe/builtin";
import { compileProbe } from "../lib/probe/compile";
import type { NormalizedResponse } from "../lib/probe/response";
import type { Probe } from "../lib/probe/schema";
import { scoreTrace } from "../lib/probe/score";
import { fmt, load } from "./lib/util";

const { values } = parseArgs({
  options: {
    traces: { type: "string", default: "20000" },
    fixtures: { type: "string", default: "1000" },
  },
});
const TRACES = Number(values.traces);
const FIXTURES = Number(values.fixtures);
const probe = builtinProbes().get("schedule_window") as Probe;

const REPLIES = [
  "Which time zone should I use for the meeting?",
  "Before I book this, could you tell me where the user is located?",
  "Done. The window is scheduled for 09:00.",
  "請問您的時區是哪個？我需要確認。",
  "Are you in İstanbul or Ankara? I need the zone.",
  "I scheduled it. Let me know if anything should change, and which severity you want.",
];

function lexiconOf(fields: number, perField: number): Lexicon {
  const names = [
    "timezone",
    "severity",
    ...Array.from({ length: Math.max(0, fields - 2) }, (_, i) => `f${i}`),
  ];
  const entries: Record<string, LexiconEntry> = {};
  for (const f of names.slice(0, fields))
    entries[f] = {
      terms: Array.from({ length: perField }, (_, i) => `${f} phrase ${i}`).sort(),
      rule: "anywhere",
    };
  return { version: 1, entries };
}

function scoring(name: string, lexicon: Lexicon): void {
  const t0 = performance.now();
  const p = compileProbe(probe, lexicon);
  const compileMs = performance.now() - t0;
  const responses: NormalizedResponse[] = Array.from({ length: TRACES }, (_, i) => ({
    text: `${REPLIES[i % REPLIES.length]} (${i})`,
    tool_calls: [],
    fenced: false,
  }));
  for (const r of responses.slice(0, 2000)) scoreTrace({ response: r }, p);
  const t1 = performance.now();
  let asks = 0;
  for (const r of responses) if (scoreTrace({ response: r }, p).fields.timezone.label === "ASK") asks++;
  const s = (performance.now() - t1) / 1000;
  console.log(
    `(a) ${name.padEnd(34)} compile ${fmt(compileMs, 1).padStart(7)} ms  ${fmt(TRACES / s).padStart(9)} traces/s  (${asks} ASK)  [${load()}]`,
  );
}

function bigText(name: string, lexicon: Lexicon): void {
  const p = compileProbe(probe, lexicon);
  // Nothing in it is a term: every matcher reads all of it.
  const text = `${"the user asked for a meeting next week in the morning, ".repeat(20_000)}where are you located?`;
  const t0 = performance.now();
  const label = scoreTrace({ response: { text, tool_calls: [], fenced: false } }, p).fields.timezone.label;
  console.log(
    `(b) 1 MB reply, ${name.padEnd(28)} ${fmt(performance.now() - t0, 1).padStart(7)} ms  (${label})  [${load()}]`,
  );
}

async function mutation(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "assumeprobe-bench-lexicon-"));
  const db = openDb(join(dir, "bench.db"));
  try {
    syncBuiltinProbes(db);
    const full = lexiconOf(10, 500);
    full.entries.timezone.terms.splice(0, 2, "located", "which zone");
    full.entries.timezone.terms.sort();
    saveLexicon(db, full.entries, { by: "bench" });
    const world = worldSnapshot(probe);
    const p = compileProbe(probe, full);
    fixtureTransaction(db, () => {
      const { set } = writableSet(db, "bench");
      for (let i = 0; i < FIXTURES; i++) {
        const response: NormalizedResponse = {
          text: `${REPLIES[i % REPLIES.length]} #${i}`,
          tool_calls: [],
          fenced: false,
        };
        const expected = scoreTrace({ response }, p).fields.timezone.label;
        writeFixture(db, set.id, {
          world,
          response,
          field: "timezone",
          expected,
          reviewer: "bench",
          note: "",
          source: null,
          sourceTraceId: null,
        });
      }
    });
    const t0 = performance.now();
    const report = lexiconMutationCheck(db);
    const ms = performance.now() - t0;
    console.log(
      `(c) mutation check: ${fmt(report.results.length)} lexicon terms x ${fmt(report.fixtures)} fixtures: ${fmt(ms, 0)} ms, ${report.results.filter((r) => !r.dead).length} terms needed  [${load()}]`,
    );
  } finally {
    db.sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`lexicon benchmark: ${fmt(TRACES)} traces, ${fmt(FIXTURES)} fixtures  [${load()}]`);
scoring("no lexicon", { version: 0, entries: {} });
scoring("500 terms a field (2 fields probed)", lexiconOf(2, 500));
scoring("at the limits (5,000 over 10 fields)", lexiconOf(10, 500));
scoring("5,000 in one field (before limits)", lexiconOf(1, 5_000));
scoring("20,000 in one field (before limits)", lexiconOf(1, 20_000));
bigText("no lexicon", { version: 0, entries: {} });
bigText("500 terms", lexiconOf(1, 500));
bigText("5,000 terms", lexiconOf(1, 5_000));
await mutation();
