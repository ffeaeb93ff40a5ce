import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import type { Db } from "../../../db/client";
import { syncSeedSet } from "../../../db/queries/fixtureSeed";
import { markInterruptedIngests } from "../../../db/queries/ingestBatches";
import { createIngestStore } from "../../../db/queries/ingestStore";
import { inlineOriginals, packStoredOriginals } from "../../../db/queries/packOriginals";
import { type RescoreReport, upgradeRescores } from "../../../db/queries/rescore/jobs";
import { runRescore } from "../../../db/queries/rescore/run";
import { backfillAll } from "../../../db/queries/tagBackfill";
import { type IngestSource, ingestSources } from "../../ingest/pipeline";
import { openSource, sourceName, sourceSize } from "../../ingest/readSource";
import { DEFAULT_PROBE_ID } from "../../probe/builtin";
import { describeTransitions } from "../../probe/transitions";
import { projectRoot } from "../../root";
import { cliDb } from "../db";
import { loadDemoFixtures } from "../demoFixtures";
import { loadDemoReviews } from "../demoReviews";

function sources(paths: string[]): IngestSource[] {
  return paths.map((f) => ({
    file: f,
    name: sourceName(f),
    get stream() {
      return openSource(f);
    },
    size: sourceSize(f) ?? undefined,
  }));
}

/** The demo runs shipped in fixtures/: When2Call calibration and a few nights of schedule_window. */
export async function loadDemo(log: (s: string) => void): Promise<void> {
  const db = cliDb();
  const store = createIngestStore(db);
  const root = projectRoot();
  const w2c = join(root, "fixtures", "when2call", "when2call_test_llm_judge.jsonl");
  const demoDir = join(root, "fixtures", "demo");
  let demo: string[] = [];
  try {
    demo = readdirSync(demoDir)
      .filter((f) => f.endsWith(".jsonl"))
      .sort()
      .map((f) => join(demoDir, f));
  } catch {
    demo = [];
  }
  const a = await ingestSources(
    sources([w2c]),
    { probe: DEFAULT_PROBE_ID, format: "when2call", origin: "demo" },
    store,
  );
  const b = await ingestSources(
    sources(demo),
    { probe: DEFAULT_PROBE_ID, format: "trace", origin: "demo" },
    store,
  );
  const reviews = loadDemoReviews(db, join(demoDir, "reviews.json"));
  const curated = await loadDemoFixtures(db, join(demoDir, "fixtures"), (files) =>
    ingestSources(sources(files), { probe: DEFAULT_PROBE_ID, format: "trace", origin: "demo" }, store),
  );
  db.sqlite.pragma("optimize");
  log(
    `assumeprobe: loaded demo data: ${a.ingested + b.ingested} traces in ${a.runs.length + b.runs.length} runs, ${reviews} reviews, fixture set ${curated.set} with ${curated.fixtures} fixtures (start empty with ASSUMEPROBE_DEMO=0)`,
  );
}

/**
 * Finishes the re-scores left queued: a migration queues one per stored run when a new version
 * parses or scores differently (the one-time re-score after an upgrade); one stopped part way
 * resumes where it stopped. Nothing to do on a database that is up to date. A re-score the
 * dashboard started is not run here: its server resumes it in the background once it listens.
 */
export function finishRescores(db: Db, log: (s: string) => void, warn: (s: string) => void): void {
  const pending = upgradeRescores(db);
  if (pending.length === 0) return;
  log(
    `assumeprobe: re-scoring ${pending.length} run${pending.length === 1 ? "" : "s"} stored by an earlier version (once; stopped, it resumes here)`,
  );
  let lastLog = Date.now();
  const options = {
    onProgress: (p: { run: string; scanned: number; total: number }) => {
      if (Date.now() - lastLog < 2000) return;
      lastLog = Date.now();
      log(`  ${p.run}: ${p.scanned.toLocaleString("en-US")} of ${p.total.toLocaleString("en-US")} traces…`);
    },
  };
  for (const id of pending) {
    let r: RescoreReport;
    try {
      r = runRescore(db, id, options);
    } catch (e) {
      // The stored results stay as they were and the re-score stays queued: the dashboard still starts.
      warn(
        `assumeprobe: re-score ${id} failed (${e instanceof Error ? e.message : String(e)}); it is retried at the next setup`,
      );
      continue;
    }
    const skipped =
      r.skipped > 0 ? `, ${r.skipped.toLocaleString("en-US")} could not be re-read (kept as stored)` : "";
    const moves = r.changed > 0 ? `: ${describeTransitions(r.transitions)}` : "";
    log(
      `  ${r.run}: ${r.scanned.toLocaleString("en-US")} traces, ${r.changed.toLocaleString("en-US")} changed${skipped}${moves}`,
    );
  }
}

/**
 * Originals stored before blocks (migration 0020) are packed here, a chunk per transaction: a
 * setup stopped partway goes on next time, and readers read both kinds of row meanwhile.
 */
export function packInlineOriginals(db: Db, log: (s: string) => void): void {
  const todo = inlineOriginals(db);
  if (todo === 0) return;
  log(
    `assumeprobe: packing the originals of ${todo.toLocaleString("en-US")} stored traces into compressed blocks`,
  );
  let shown = 0;
  const r = packStoredOriginals(db, {
    chunk: 5000,
    onChunk: (k) => {
      if (k - shown < todo / 10 && k < todo) return;
      shown = k;
      log(`assumeprobe: packed ${k.toLocaleString("en-US")} of ${todo.toLocaleString("en-US")}`);
    },
  });
  log(
    `assumeprobe: originals packed (traces before ${r.tracesBefore.toLocaleString("en-US")}, after ${r.tracesAfter.toLocaleString("en-US")}); \`assumeprobe db compact\` gives the freed space back to the disk`,
  );
}

export function registerSetup(program: Command): void {
  program
    .command("setup")
    .description(
      "Create or migrate the database and store the built-in probes; --demo loads demo runs into an empty one.",
    )
    .option("--demo", "load the demo runs when the database has no runs")
    .action(async (opts: { demo?: boolean }) => {
      const db = cliDb();
      // `npm start` runs this: ingests whose process died are marked interrupted.
      const interrupted = markInterruptedIngests(db);
      if (interrupted > 0)
        process.stdout.write(
          `assumeprobe: ${interrupted} ingest(s) had stopped unfinished; marked interrupted (see /ingests)\n`,
        );
      syncSeedSet(db);
      finishRescores(
        db,
        (s) => process.stdout.write(`${s}\n`),
        (s) => process.stderr.write(`${s}\n`),
      );
      backfillAll(db, (s) => process.stdout.write(`${s}\n`));
      packInlineOriginals(db, (s) => process.stdout.write(`${s}\n`));
      const runs = db.sqlite.prepare("SELECT count(*) FROM runs").pluck().get() as number;
      if (opts.demo && runs === 0) await loadDemo((s) => process.stdout.write(`${s}\n`));
      process.stdout.write(`assumeprobe: database ready at ${db.path}\n`);
    });
}
