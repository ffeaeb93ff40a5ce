/**
 * Adding a run page's filter to a fixture set: every field the filter shows, with its current
 * human label (review, else imported) as the expected label; fields with none are skipped and
 * counted. Walked in slices (yielding between them) and written in short IMMEDIATE batches
 * through the one write path, up to a limit that the page states.
 */
import { BULK_ADD_MAX } from "../../lib/fixtures/limits";
import { LABELS, type Label } from "../../lib/probe/schema";
import type { TraceScore } from "../../lib/probe/score";
import { type FieldFacts, selectedFields, withoutHuman } from "../../lib/review/fieldFilter";
import { humanLabel } from "../../lib/review/humanLabel";
import type { TraceFilter } from "../../lib/traceFilter";
import type { Db } from "../client";
import { fixtureTransaction, writableSet } from "./fixtureSets";
import { type TraceFieldAdd, writeTraceFields } from "./fixtures";
import { currentReviews } from "./reviews";
import { matchingIdsAfter } from "./traceList";

export { BULK_ADD_MAX };

const IDS_PER_READ = 256;
const WRITE_BATCH = 500;

export interface BulkAddResult {
  set: string;
  created: boolean;
  added: number;
  relabelled: number;
  unchanged: number;
  /** Selected fields with no human label. */
  skipped: number;
  /** The selection held more than the limit: the rest was not added. */
  truncated: boolean;
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The selected fields of one trace with their current human labels. */
function selected(
  db: Db,
  filter: TraceFilter,
  field: string,
  traceId: number,
): { adds: TraceFieldAdd[]; skipped: number } {
  const row = db.sqlite.prepare("SELECT result, human, recorded FROM traces WHERE id = ?").get(traceId) as
    | { result: string; human: string | null; recorded: string | null }
    | undefined;
  if (!row) return { adds: [], skipped: 0 };
  const score = JSON.parse(row.result) as TraceScore;
  const imported = row.human ? (JSON.parse(row.human) as Record<string, string>) : {};
  const recorded = row.recorded ? (JSON.parse(row.recorded) as Record<string, string>) : {};
  const reviews = currentReviews(db, traceId);
  const facts: FieldFacts[] = Object.entries(score.fields).map(([f, s]) => ({
    field: f,
    ours: s.label,
    reasons: s.reasons ?? [],
    flags: [...s.flags, ...(score.side_effect?.fields[f]?.flags ?? [])],
    recorded: recorded[f],
    imported: imported[f],
    review: reviews.get(f),
  }));
  const adds: TraceFieldAdd[] = [];
  let skipped = 0;
  for (const x of selectedFields(filter, field, facts)) {
    const h = humanLabel(x.review, x.imported);
    if (!h || !(LABELS as readonly string[]).includes(h.label)) skipped++;
    else
      adds.push({
        traceId,
        field: x.field,
        expected: h.label as Label,
        note: h.source === "review" ? (reviews.get(x.field)?.note ?? "") : "",
      });
  }
  return { adds, skipped };
}

export async function addFilterToSet(
  db: Db,
  spec: { runId: number; filter: TraceFilter; field: string },
  setName: string,
  reviewer: string,
  limit = BULK_ADD_MAX,
): Promise<BulkAddResult> {
  const { set, created } = fixtureTransaction(db, () => writableSet(db, setName));
  const out: BulkAddResult = {
    set: set.name,
    created,
    added: 0,
    relabelled: 0,
    unchanged: 0,
    skipped: 0,
    truncated: false,
  };
  const filter = { ...spec.filter, after: undefined, before: undefined };
  let pending: TraceFieldAdd[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    const r = fixtureTransaction(db, () => writeTraceFields(db, set.name, reviewer, batch));
    for (const f of r.fixtures)
      out[f.outcome === "added" ? "added" : f.outcome === "relabelled" ? "relabelled" : "unchanged"]++;
  };
  let after = 0;
  let taken = 0;
  for (;;) {
    const ids = matchingIdsAfter(db, spec.runId, withoutHuman(filter), spec.field, after, IDS_PER_READ);
    if (ids.length === 0) break;
    for (const id of ids) {
      const s = selected(db, filter, spec.field, id);
      out.skipped += s.skipped;
      if (taken + s.adds.length > limit) {
        out.truncated = true;
        break;
      }
      taken += s.adds.length;
      pending.push(...s.adds);
      if (pending.length >= WRITE_BATCH) flush();
    }
    if (out.truncated) break;
    after = ids[ids.length - 1];
    await tick();
  }
  flush();
  return out;
}
