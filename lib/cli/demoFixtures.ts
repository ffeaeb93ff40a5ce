import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { Db } from "../../db/client";
import { rerunSet } from "../../db/queries/fixtureRuns";
import { syncSeedSet } from "../../db/queries/fixtureSeed";
import { fixtureTransaction, setDescription } from "../../db/queries/fixtureSets";
import { writeHumanFields } from "../../db/queries/fixtures";
import { SetNameSchema } from "../fixtures/setName";
import { addProbeFile } from "./commands/probes";
import { loadDemoReviews } from "./demoReviews";

const DemoSetSchema = z.object({
  set: SetNameSchema,
  description: z.string(),
  added_by: z.string().min(1),
  probe_v1: z.string(),
  probe_v2: z.string(),
  runs: z.array(z.string()),
  reviews: z.string(),
  fixtures: z.array(z.object({ run: z.string(), id: z.string(), field: z.string() })),
});

/**
 * The demo's curated set (fixtures/demo/fixtures/set.json), so a first dashboard shows fixtures
 * and a flip: the demo probe's v1 (through `probes add`'s code), its run and reviews, the set
 * built from reviewed fields and re-run; then v2, whose ask terms differ, and a second re-run.
 * The seed set is re-run too. Returns the set's size.
 */
export async function loadDemoFixtures(
  db: Db,
  dir: string,
  ingest: (files: string[]) => Promise<unknown>,
): Promise<{ set: string; fixtures: number }> {
  const spec = DemoSetSchema.parse(JSON.parse(readFileSync(join(dir, "set.json"), "utf8")));
  syncSeedSet(db);
  addProbeFile(db, join(dir, spec.probe_v1));
  await ingest(spec.runs.map((f) => join(dir, f)));
  loadDemoReviews(db, join(dir, spec.reviews));
  const find = db.sqlite
    .prepare("SELECT t.id FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name = ? AND t.ext_id = ?")
    .pluck();
  fixtureTransaction(db, () => {
    for (const f of spec.fixtures) {
      const traceId = find.get(f.run, f.id) as number | undefined;
      if (traceId === undefined) throw new Error(`${dir}/set.json: no trace ${f.id} in run ${f.run}`);
      const r = writeHumanFields(db, spec.set, spec.added_by, traceId, [f.field]);
      if (r.skipped.length) throw new Error(`${dir}/set.json: ${f.id} ${f.field} has no human label`);
    }
  });
  setDescription(db, spec.set, spec.description);
  rerunSet(db, "seed", "demo");
  rerunSet(db, spec.set, "demo");
  addProbeFile(db, join(dir, spec.probe_v2));
  rerunSet(db, spec.set, "demo");
  return { set: spec.set, fixtures: spec.fixtures.length };
}
