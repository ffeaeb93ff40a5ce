/**
 * Adding a run page's filter to a fixture set: every field the filter shows, with its human label
 * (current review, else imported) as the expected label; fields with none are skipped and counted.
 * One kind at a time (BulkAddKind): corrections, where that label differs from the scorer's stored
 * one, or confirmations, where it is the same; the count shows both.
 *
 * As the bulk relabel does (bulkReviews.ts), the reviewer first sees a count, taken at a mark
 * (bulkSelection.ts); the add then selects each field as it was at that mark, so what is written
 * is what was confirmed: a field someone reviewed after the count is skipped and listed (its
 * expected label would no longer be the one shown), and traces ingested since are left alone.
 * The count refuses a selection over BULK_ADD_MAX (a sign the filter is not the one meant).
 *
 * Both walk the filter in slices and yield between them. The add is a job row with a cursor
 * (fixturesBulkJobs.ts), written through the one write path (writeTraceFields) in short IMMEDIATE
 * transactions of at most `maxFields` fields and about `budgetMs` of work, each moving the cursor
 * in the same transaction: other writers and page requests get in between, and a runner killed
 * part way is resumed (db/jobs/bulkAdd.ts) with nothing added twice.
 */
import { FixtureError } from "../../lib/fixtures/errors";
import { BULK_ADD_MAX } from "../../lib/fixtures/limits";
import { LABELS, type Label } from "../../lib/probe/schema";
import { humanLabel } from "../../lib/review/humanLabel";
import type { Db } from "../client";
import { pageless } from "./bulkJobs";
import { type BulkMarkIds, candidatesAfter, type SelectedField, selectAsOf, takeMark } from "./bulkSelection";
import { checkSetName, fixtureTransaction, getSet, writableSet } from "./fixtureSets";
import { type TraceFieldAdd, writeTraceFields } from "./fixtures";
import {
  type BulkAddJob,
  type BulkAddKind,
  type BulkAddResult,
  type BulkAddSpec,
  bulkAddResult,
  DEFAULT_BULK_ADD_KIND,
  getBulkAdd,
  insertBulkAdd,
  ofKind,
} from "./fixturesBulkJobs";

export * from "./fixturesBulkJobs";

export { BULK_ADD_MAX };

/** A batch of the add stops taking traces after this much work (the bulk relabel's budget). */
export const BULK_ADD_BUDGET_MS = 30;
export const BULK_ADD_BATCH_FIELDS = 1_000;

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

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
  /** The kind counted in `total`, and fields with a human label of each kind (past the limit: partial). */
  kind: BulkAddKind;
  kinds: { corrections: number; confirmations: number };
  /** The set, as it is now: null when the add will create it. */
  set: { name: string; fixtures: number } | null;
}

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
  const kind = spec.kind ?? DEFAULT_BULK_ADD_KIND;
  const out: BulkAddCount = {
    ...mark,
    total: 0,
    overLimit: false,
    limit,
    labels: {},
    noLabel: 0,
    kind,
    kinds: { corrections: 0, confirmations: 0 },
    set,
  };
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
        const k: BulkAddKind = ofKind("confirmations", e.label, x.ours) ? "confirmations" : "corrections";
        out.kinds[k]++;
        if (!ofKind(kind, e.label, x.ours)) continue;
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
 * Records a bulk add of what a count confirmed (the set created when missing); bulkAddStep writes
 * it. A count over the limit, the read-only seed, a bad set name or no reviewer are refused before
 * anything is written.
 */
export function startBulkAdd(
  db: Db,
  input: BulkAddSpec,
  mark: BulkMarkIds & { total: number },
  setName: string,
  reviewer: string,
  opts: { limit?: number } = {},
): BulkAddJob {
  const limit = opts.limit ?? BULK_ADD_MAX;
  if (mark.total > limit)
    throw new FixtureError(
      "too_many",
      `${mark.total.toLocaleString("en-US")} fields is more than the ${limit.toLocaleString("en-US")} one bulk add takes: narrow the filter`,
    );
  const who = reviewer.trim();
  if (who === "") throw new FixtureError("no_reviewer", "a reviewer name is required");
  const spec = { ...input, filter: pageless(input.filter) };
  const id = fixtureTransaction(db, () => {
    const { set, created } = writableSet(db, setName);
    return insertBulkAdd(db, spec, mark, { name: set.name, created }, who);
  });
  return getBulkAdd(db, id) as BulkAddJob;
}

/**
 * One batch of a bulk add, in one IMMEDIATE transaction: traces from the cursor on until
 * `maxFields` fields or `budgetMs` of work, each field as of the count's mark, written through
 * writeTraceFields, with the counts, the fields left out and the new cursor. A runner that no
 * longer holds `lease` writes nothing. Returns the job after the batch.
 */
export function bulkAddStep(
  db: Db,
  id: number,
  opts: { maxFields?: number; budgetMs?: number; lease?: { owner: string; until: number } } = {},
): BulkAddJob | undefined {
  const maxFields = opts.maxFields ?? BULK_ADD_BATCH_FIELDS;
  const budget = opts.budgetMs ?? BULK_ADD_BUDGET_MS;
  fixtureTransaction(db, () => {
    const job = getBulkAdd(db, id);
    if (job?.status !== "running") return;
    if (
      opts.lease &&
      db.sqlite.prepare("SELECT lease_owner FROM bulk_fixture_adds WHERE id = ?").pluck().get(id) !==
        opts.lease.owner
    )
      return;
    const addChange = db.sqlite.prepare(
      "INSERT OR IGNORE INTO bulk_fixture_add_changes(job_id, trace_id, field, review_id) VALUES (?, ?, ?, ?)",
    );
    const t0 = performance.now();
    const n = { added: 0, relabelled: 0, unchanged: 0, noLabel: 0, changed: 0 };
    let cursor = job.cursor;
    let fields = 0;
    let traces = 0;
    let done = false;
    outer: for (;;) {
      const ids = candidatesAfter(db, job, cursor, job.lastTraceId);
      if (ids.length === 0) {
        done = true;
        break;
      }
      for (const traceId of ids) {
        // The budget counts the writes too: each trace's fields are written as it is read.
        if (traces > 0 && (fields >= maxFields || performance.now() - t0 > budget)) break outer;
        traces++;
        cursor = traceId;
        const adds: TraceFieldAdd[] = [];
        for (const x of selectAsOf(db, job.filter, job.field, job.seenReviewId, traceId)) {
          if (x.changed && x.current) {
            n.changed += addChange.run(id, traceId, x.field, x.current.id).changes;
            continue;
          }
          const e = expectedOf(x);
          if (!e) n.noLabel++;
          else if (!ofKind(job.kind, e.label, x.ours)) continue;
          else adds.push({ traceId, field: x.field, expected: e.label, note: e.note });
        }
        if (adds.length === 0) continue;
        for (const f of writeTraceFields(db, job.setName, job.reviewer, adds).fixtures) n[f.outcome]++;
        fields += adds.length;
      }
    }
    db.sqlite
      .prepare(
        `UPDATE bulk_fixture_adds SET cursor = ?, added = added + ?, relabelled = relabelled + ?,
           unchanged = unchanged + ?, no_label = no_label + ?, changed = changed + ?, batches = batches + ?,
           status = CASE WHEN ? THEN 'done' ELSE status END,
           finished_at = CASE WHEN ? THEN strftime('%Y-%m-%dT%H:%M:%fZ','now') ELSE finished_at END,
           lease_until = coalesce(?, lease_until),
           updated_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = ?`,
      )
      .run(
        cursor,
        n.added,
        n.relabelled,
        n.unchanged,
        n.noLabel,
        n.changed,
        fields > 0 ? 1 : 0,
        done ? 1 : 0,
        done ? 1 : 0,
        opts.lease?.until ?? null,
        id,
      );
  });
  return getBulkAdd(db, id);
}

/**
 * Adds what a count confirmed to the set on this thread, batch by batch, yielding between them
 * (the CLI's bench and the tests; the dashboard runs the same job in the background).
 */
export async function addFilterToSet(
  db: Db,
  input: BulkAddSpec,
  mark: BulkMarkIds & { total: number },
  setName: string,
  reviewer: string,
  opts: { limit?: number; budgetMs?: number; maxFields?: number } = {},
): Promise<BulkAddResult> {
  const job = startBulkAdd(db, input, mark, setName, reviewer, opts);
  for (;;) {
    const now = bulkAddStep(db, job.id, opts) as BulkAddJob;
    if (now.status !== "running") return bulkAddResult(db, now);
    await tick();
  }
}
