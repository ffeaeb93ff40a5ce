/**
 * The review benchmarks' database: the big generated run (loadBigRun), copied once with reviews
 * seeded into it (kept and reused), then copied again for each benchmark run so its writes never
 * touch the seeded copy. And the build's server action ids, to call actions as a browser does.
 */
import { copyFileSync, existsSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { DIST, loadBigRun } from "./server";
import { benchDir, fmt, ROOT } from "./util";

export function copyDb(from: string, to: string): void {
  for (const s of ["", "-wal", "-shm"]) rmSync(`${to}${s}`, { force: true });
  // A closed database in WAL mode has everything in its main file (checkpointed on close).
  copyFileSync(from, to);
}

/**
 * `big-ingested-N.db` (the run, shared), `prefix-seeded-N.db` (the run with `seed` applied, made once)
 * and `prefix-N.db` (the copy this benchmark writes to), in the benchmarks' folder; returns the last.
 */
export async function seededDatabase(o: {
  prefix: string;
  n: number;
  run: string;
  seed: (path: string) => void;
}): Promise<string> {
  const dir = benchDir();
  const ingested = join(dir, `big-ingested-${o.n}.db`);
  const seeded = join(dir, `${o.prefix}-seeded-${o.n}.db`);
  const work = join(dir, `${o.prefix}-${o.n}.db`);
  if (!existsSync(seeded)) {
    await loadBigRun(ingested, { n: o.n, run: o.run, file: `big-${o.n}.jsonl` });
    const tmp = `${seeded}.tmp`;
    copyDb(ingested, tmp);
    o.seed(tmp);
    copyDb(tmp, seeded);
    rmSync(tmp, { force: true });
  } else console.log(`database: ${seeded} (seeded, reused)`);
  const t0 = performance.now();
  copyDb(seeded, work);
  console.log(
    `copied to ${work} in ${fmt((performance.now() - t0) / 1000, 1)} s (${fmt(statSync(work).size / 1e6)} MB)`,
  );
  return work;
}

/** Server action ids by exported name, from the build's manifest (the ids change with each build). */
export function actionIds(): Map<string, string> {
  const m = JSON.parse(
    readFileSync(join(ROOT, DIST, "server", "server-reference-manifest.json"), "utf8"),
  ) as {
    node: Record<string, { exportedName: string }>;
  };
  return new Map(Object.entries(m.node).map(([id, v]) => [v.exportedName, id]));
}
