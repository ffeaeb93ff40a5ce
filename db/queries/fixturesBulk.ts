/**
 * Adding a run page's filter to a fixture set: every field the filter shows, with its human label
 * (current review, else imported) as the expected label; fields with none are skipped and counted.
 *
 * As the bulk relabel does (bulkReviews.ts), the reviewer first sees a count, taken at a mark
 * (bulkSelection.ts); the add then selects each field as it was at that mark, so what is written
 * is what was confirmed: a field someone reviewed after the count is skipped and listed (its
 * expected label would no longer be the one shown), and traces ingested since are left alone.
 * The count refuses a selection over BULK_ADD_MAX (a sign the filter is not the one meant).
 *
 * Both walk the filter in slices and yield between them; the add writes through the one write
 * path (writeTraceFields) in short IMMEDIATE transactions of at most `maxFields` fields and about
 * `budgetMs` of work, so other writers and page requests get in between.
 */
import { FixtureError } from "../../lib/fixtures/errors";
import { BULK_ADD_MAX } from "../../lib/fixtures/limits";
import { LABELS, type Label } from "../../lib/probe/schema";
import { humanLabel } from "../../lib/review/humanLabel";
import type { TraceFilter } from "../../lib/traceFilter";
import type { Db } from "../client";
import { pageless } from "./bulkJobs";
import { type BulkMarkIds, candidatesAfter, type SelectedField, selectAsOf, takeMark } from "./bulkSelection";
import { checkSetName, fixtureTransaction, getSet, writableSet } from "./fixtureSets";
import { type TraceFieldAdd, writeTraceFields } from "./fixtures";

export { BULK_ADD_MAX };

/** A batch of the add stops taking traces after this much work (the bulk relabel's budget). */
export const BULK_ADD_BUDGET_MS = 30;
export const BULK_ADD_BATCH_FIELDS = 1_000;

export interface BulkAddSpec {
  runId: number;
  /** The run page's filter (paging is ignored). */
  filter: TraceFilter;
  /** The filtered field, or `*` for any field. */
  field: string;
}

export interface BulkAddCount extends BulkMarkIds {
  /** Fields with a human label: what the add writes. Past the limit, counting stopped at limit + 1. */
  total: number;
  /** Whether the selection holds more than `limit` fields with a human label (nothing can be added). */
  overLimit: boolean;
  limit: number;
  /** `total` by expected label. */
  labels: Partial<Record<Label, number>>;
  /** Selected fields with no human label (skipped). */
  noLabel: number;
  /** The set, as it is now: null when the add will create it. */
  set: { name: string; fixtures: number } | null;
}

export interface BulkAddChanged {
  traceId: number;
  field: string;
  review: { id: number; label: string | null; reviewer: string; createdAt: string };
}

export interface BulkAddResult {
  set: string;
  created: boolean;
  added: number;
  relabelled: number;
  unchanged: number;
  /** Selected fields with no human label. */
  noLabel: number;
  /** Fields reviewed after the count: skipped, never added with a label the reviewer did not see. */
  changed: number;
  /** The first of those (up to 100). */
  changes: BulkAddChanged[];
  /** Transactions written. */
  batches: number;
}

const CHANGES_LISTED = 100;
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A selected field's expected label as of the mark, or null when it has none. */
function expectedOf(x: SelectedField): { label: Label; note: string } | null {
  const h = humanLabel(x.asOf, x.imported);
  if (!h || !(LABELS as readonly string[]).includes(h.label)) return null;
  return { label: h.label as Label, note: h.source === "review" ? (x.asOf?.note ?? "") : "" };
}

/** The set a bulk add would write to, checked now: a bad name or the read-only seed is an error before any count. */
function setNow(db: Db, setName: string): BulkAddCount["set"] {
  const name = checkSetName(setName);
  const found = getSet(db, name);
  if (found?.builtin || (!found && name === "seed"))
    throw new FixtureError("read_only", `the ${found?.name ?? name} set is read-only: choose another set`);
  if (!found) return null;
  const fixtures = db.sqlite
    .prepare("SELECT count(*) FROM fixtures WHERE set_id = ?")
    .pluck()
    .get(found.id) as number;
  return { name: found.name, fixtures };
}

/**
 * How many fields a bulk add of this filter would write to the set, by expected label, and the
 * mark it counts at. Stops counting past `limit`; yields after each `budgetMs` of work.
 */
export async function countBulkAdd(
  db: Db,
  input: BulkAddSpec,
  setName: string,
  opts: { limit?: number; budgetMs?: number } = {},
): Promise<BulkAddCount> {
  const limit = opts.limit ?? BULK_ADD_MAX;
  const budget = opts.budgetMs ?? BULK_ADD_BUDGET_MS;
  const set = setNow(db, setName);
  const spec = { ...input, filter: pageless(input.filter) };
  const mark = takeMark(db, spec.runId);
  const out: BulkAddCount = { ...mark, total: 0, overLimit: false, limit, labels: {}, noLabel: 0, set };
  let after = 0;
  let started = performance.now();
  walk: for (;;) {
    const ids = candidatesAfter(db, spec, after, mark.lastTraceId);
    if (ids.length === 0) break;
    for (const id of ids) {
      for (const x of selectAsOf(db, spec.filter, spec.field, mark.seenReviewId, id)) {
        const e = expectedOf(x);
        if (!e) {
          out.noLabel++;
          continue;
        }
        out.total++;
        out.labels[e.label] = (out.labels[e.label] ?? 0) + 1;
        if (out.total > limit) {
          out.overLimit = true;
          break walk;
        }
      }
      if (performance.now() - started > budget) {
        await tick();
        started = performance.now();
      }
    }
    after = ids[ids.length - 1];
  }
  return out;
}

/**
 * Adds what a count confirmed to the set (created when missing), each field as of the count's
 * mark, through the one write path, batch by batch. A count over the limit is refused.
 */
export async function addFilterToSet(
  db: Db,
  input: BulkAddSpec,
  mark: BulkMarkIds & { total: number },
  setName: string,
  reviewer: string,
  opts: { limit?: number; budgetMs?: number; maxFields?: number } = {},
): Promise<BulkAddResult> {
  const limit = opts.limit ?? BULK_ADD_MAX;
  const budget = opts.budgetMs ?? BULK_ADD_BUDGET_MS;
  const maxFields = opts.maxFields ?? BULK_ADD_BATCH_FIELDS;
  if (mark.total > limit)
    throw new FixtureError(
      "too_many",
      `${mark.total.toLocaleString("en-US")} fields is more than the ${limit.toLocaleString("en-US")} one bulk add takes: narrow the filter`,
    );
  if (reviewer.trim() === "") throw new FixtureError("no_reviewer", "a reviewer name is required");
  const spec = { ...input, filter: pageless(input.filter) };
  const { set, created } = fixtureTransaction(db, () => writableSet(db, setName));
  const out: BulkAddResult = {
    set: set.name,
    created,
    added: 0,
    relabelled: 0,
    unchanged: 0,
    noLabel: 0,
    changed: 0,
    changes: [],
    batches: 0,
  };
  let cursor = 0;
  let ids: number[] = [];
  let i = 0;
  for (;;) {
    // One batch: traces from the cursor until maxFields fields or the budget, read and written in
    // one transaction, so a field's label cannot change between reading and writing it.
    const done = fixtureTransaction(db, () => {
      const t0 = performance.now();
      let fields = 0;
      let traces = 0;
      for (;;) {
        if (i >= ids.length) {
          ids = candidatesAfter(db, spec, cursor, mark.lastTraceId);
          i = 0;
          if (ids.length === 0) break;
        }
        // The budget counts the writes too: each trace's fields are written as it is read.
        if (traces > 0 && (fields >= maxFields || performance.now() - t0 > budget)) break;
        const traceId = ids[i++];
        cursor = traceId;
        traces++;
        const adds: TraceFieldAdd[] = [];
        for (const x of selectAsOf(db, spec.filter, spec.field, mark.seenReviewId, traceId)) {
          if (x.changed && x.current) {
            out.changed++;
            if (out.changes.length < CHANGES_LISTED)
              out.changes.push({
                traceId,
                field: x.field,
                review: {
                  id: x.current.id,
                  label: x.current.label,
                  reviewer: x.current.reviewer,
                  createdAt: x.current.createdAt,
                },
              });
            continue;
          }
          const e = expectedOf(x);
          if (!e) out.noLabel++;
          else adds.push({ traceId, field: x.field, expected: e.label, note: e.note });
        }
        if (adds.length === 0) continue;
        for (const f of writeTraceFields(db, set.name, reviewer, adds).fixtures) out[f.outcome]++;
        fields += adds.length;
      }
      if (fields > 0) out.batches++;
      return ids.length === 0;
    });
    if (done) break;
    await tick();
  }
  return out;
}
