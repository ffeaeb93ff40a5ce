/**
 * The agreement counts: per run, probe and field, how many fields have our label X and the
 * current human label Y (a review, else the imported label). Read from the kept counts of the
 * `hp:field=X/Y` tags, which ingest writes and every review rewrites (lib/ingest/tags.ts), so the
 * agreement page costs the same at a million traces as at ten: a range of the tag names and the
 * counts of those tags (run_counts by tag), never a scan of traces or reviews.
 */
import { parseTag } from "../../lib/ingest/tags";
import type { ProbeOrigin } from "../../lib/probeGroups";
import type { Db } from "../client";
import { probeOrigins } from "./probeUsage";

export interface AgreementCount {
  runId: number;
  run: string;
  model: string | null;
  probeId: string;
  field: string;
  ours: string;
  human: string;
  n: number;
}

export interface AgreementFilter {
  model?: string;
  run?: string;
}

/** Every (run, probe, field, ours, human) count with a human label, optionally for one model or run. */
export function agreementCounts(db: Db, filter: AgreementFilter = {}): AgreementCount[] {
  const cond = ["tn.name >= 'hp:'", "tn.name < 'hp;'", "rc.n > 0"];
  const args: string[] = [];
  if (filter.model) {
    cond.push("r.model = ?");
    args.push(filter.model);
  }
  if (filter.run) {
    cond.push("r.name = ?");
    args.push(filter.run);
  }
  const rows = db.sqlite
    .prepare(
      `SELECT rc.run_id AS runId, r.name AS run, r.model AS model, rc.probe_id AS probeId, tn.name AS tag, rc.n AS n
       FROM tag_names tn JOIN run_counts rc ON rc.tag_id = tn.id JOIN runs r ON r.id = rc.run_id
       WHERE ${cond.join(" AND ")}`,
    )
    .all(...args) as {
    runId: number;
    run: string;
    model: string | null;
    probeId: string;
    tag: string;
    n: number;
  }[];
  const out: AgreementCount[] = [];
  for (const r of rows) {
    const t = parseTag(r.tag);
    if (t?.kind !== "humanPair" || t.field === null) continue;
    const slash = t.value.indexOf("/");
    if (slash < 0) continue;
    out.push({
      runId: r.runId,
      run: r.run,
      model: r.model,
      probeId: r.probeId,
      field: t.field,
      ours: t.value.slice(0, slash),
      human: t.value.slice(slash + 1),
      n: r.n,
    });
  }
  return out;
}

/**
 * Every probe that scored traces, with the origin of its first version and the runs it was scored
 * in: what groupProbes (lib/probeGroups.ts) groups, as the overview's probe filter does.
 */
export function probesWithRuns(db: Db): ProbeOrigin[] {
  const origins = probeOrigins(db);
  const runs = new Map<string, string[]>();
  const rows = db.sqlite
    .prepare(
      "SELECT DISTINCT rs.probe_id AS probe, r.name AS run FROM run_scoring rs JOIN runs r ON r.id = rs.run_id",
    )
    .all() as { probe: string; run: string }[];
  for (const r of rows) {
    const list = runs.get(r.probe);
    if (list) list.push(r.run);
    else runs.set(r.probe, [r.run]);
  }
  return [...runs].map(([id, names]) => ({ id, origin: origins.get(id) ?? "", runs: names }));
}

/** Models that have runs, for the page's filter. */
export function modelsWithRuns(db: Db): string[] {
  return db.sqlite
    .prepare("SELECT DISTINCT model FROM runs WHERE model IS NOT NULL ORDER BY model")
    .pluck()
    .all() as string[];
}
