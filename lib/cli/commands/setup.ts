import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { syncSeedSet } from "../../../db/queries/fixtureSeed";
import { createIngestStore } from "../../../db/queries/ingestStore";
import { backfillAll } from "../../../db/queries/tagBackfill";
import { type IngestSource, ingestSources } from "../../ingest/pipeline";
import { openSource, sourceName, sourceSize } from "../../ingest/readSource";
import { DEFAULT_PROBE_ID } from "../../probe/builtin";
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

export function registerSetup(program: Command): void {
  program
    .command("setup")
    .description(
      "Create or migrate the database and store the built-in probes; --demo loads demo runs into an empty one.",
    )
    .option("--demo", "load the demo runs when the database has no runs")
    .action(async (opts: { demo?: boolean }) => {
      const db = cliDb();
      syncSeedSet(db);
      backfillAll(db, (s) => process.stdout.write(`${s}\n`));
      const runs = db.sqlite.prepare("SELECT count(*) FROM runs").pluck().get() as number;
      if (opts.demo && runs === 0) await loadDemo((s) => process.stdout.write(`${s}\n`));
      process.stdout.write(`assumeprobe: database ready at ${db.path}\n`);
    });
}
