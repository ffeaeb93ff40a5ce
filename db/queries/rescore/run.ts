import { type Rescored, rescoreStored, withReviews } from "../../../lib/ingest/rescore";
import type { Lexicon } from "../../../lib/lexicon/lexicon";
import { compileProbe } from "../../../lib/probe/compile";
import type { Probe } from "../../../lib/probe/schema";
import type { TraceScore } from "../../../lib/probe/score";
import { addTransition } from "../../../lib/probe/transitions";
import { askMayChange } from "../../../lib/tuning/footprint";
import type { Db } from "../../client";
import { writeSync } from "../../write";
import { lexiconAt } from "../lexicon";
import { getProbeVersion } from "../probes";
import { currentReviewLabelsOf } from "../reviews";
import { recordRunScorings } from "../runScoring";
import { planOf, ScoringTargets, type StoredPlan, storedVersionOf } from "../scoringTargets";
import { resetTagCache } from "../tags";
import {
  type JobRow,
  jobRow,
  pendingRescores,
  queueRescore,
  type RescoreReport,
  saveJob,
  toReport,
} from "./jobs";
import {
  applyCounts,
  applySigns,
  type CountMoves,
  type Ok,
  type RescoreStatements,
  rescoreStatements,
  resignTraces,
  rewriteTrace,
  type SignGroups,
  type TraceRow,
} from "./writes";

/**
 * Re-scoring stored traces: each trace of a run is scored again from its original record (today's
 * parser and scorer, with the probe version that scored it unless told otherwise), and only
 * traces whose result or normalized response changes are rewritten: their `result`, `labels`,
 * `gate` and `response`, their tag rows with signatures, their search row, and the run's counts.
 * Unchanged traces whose tag rows carry a stale signature (after a layout change reset them to -1)
 * get their current one. Work goes in batches of bounded size, each one short IMMEDIATE
 * transaction that also moves the re-score's cursor and adds its transitions, so a stopped
 * re-score resumes where it stopped and counts nothing twice; running it again changes nothing.
 */

/** What scores a stored trace again: a probe version and a lexicon version. */
export interface ScoringChoice {
  probe: Probe;
  version: number;
  lexicon: Lexicon;
}

export interface RescoreOptions {
  /**
   * What scores a trace (its probe id, probe version and lexicon version): by default the versions
   * that scored it. Undefined: they are not in the database (the trace is skipped and listed).
   */
  scoringFor?: (t: {
    probeId: string;
    probeVersion: number;
    lexiconVersion: number;
  }) => ScoringChoice | string;
  /** Traces per transaction. */
  batchSize?: number;
  /** Original bytes per transaction (a batch ends early past it, after at least one trace). */
  batchBytes?: number;
  onProgress?: (p: RescoreProgress) => void;
  /** Stop after this many batches (the rest stays pending): for tests of a stopped re-score. */
  maxBatches?: number;
}

export interface RescoreProgress {
  run: string;
  scanned: number;
  total: number;
  changed: number;
}

const MAX_SKIPS = 20;

/** The stored versions that scored each trace (probe and lexicon), each read once per re-score. */
function storedVersions(db: Db): NonNullable<RescoreOptions["scoringFor"]> {
  const cache = new Map<string, ScoringChoice | string>();
  return (t) => {
    const key = `${t.probeVersion}\u0000${t.lexiconVersion}\u0000${t.probeId}`;
    let hit = cache.get(key);
    if (hit === undefined) {
      const probe = getProbeVersion(db, t.probeId, t.probeVersion);
      const lexicon = lexiconAt(db, t.lexiconVersion);
      hit = !probe
        ? `probe ${t.probeId} v${t.probeVersion} is not in the database`
        : !lexicon
          ? `lexicon v${t.lexiconVersion} is not in the database`
          : { probe, version: t.probeVersion, lexicon };
      cache.set(key, hit);
    }
    return hit;
  };
}

/** Traces a configuration re-score reads cheaply per scan (their labels and response), outside a transaction. */
const SCAN_ROWS = 5000;

/**
 * Runs (or resumes) one queued re-score to its end, batch by batch. Re-running a finished one
 * returns its report and writes nothing. A re-score with a stored plan (queueConfigRescore)
 * applies that configuration and reads only the traces it can change; one without re-reads every
 * trace with the versions that scored it (after a parser change).
 */
export function runRescore(db: Db, id: number, options: RescoreOptions = {}): RescoreReport {
  const job = jobRow(db, id);
  if (!job) throw new Error(`there is no re-score ${id}`);
  if (job.config !== null) return runConfigRescore(db, job, options);
  const batchSize = options.batchSize ?? 500;
  const batchBytes = options.batchBytes ?? 8 << 20;
  const q = rescoreStatements(db);
  return drive(db, job, options, () => {
    const j = jobRow(db, job.id);
    if (!j) return null;
    const window = q.window.all(j.runId, j.afterTraceId, batchSize) as { id: number; bytes: number }[];
    const ids: number[] = [];
    let bytes = 0;
    for (const w of window) {
      if (ids.length > 0 && bytes + w.bytes > batchBytes) break;
      bytes += w.bytes;
      ids.push(w.id);
    }
    const report = toReport(j);
    report.scanned += ids.length;
    report.checked += ids.length;
    processTraces(db, q, j, report, ids, options.scoringFor ?? storedVersions(db));
    const done = ids.length === 0;
    saveJob(db, j.id, report, done ? j.afterTraceId : ids[ids.length - 1], done);
    return done;
  });
}

/**
 * A re-score that applies a stored plan: each scan reads up to SCAN_ROWS traces' versions, labels
 * and responses outside any transaction, keeps those the plan can change (their versions' target
 * and footprint), and a short transaction then scores those again and moves the cursor.
 */
function runConfigRescore(db: Db, job: JobRow, options: RescoreOptions): RescoreReport {
  const stored = JSON.parse(job.config as string) as StoredPlan;
  const plan = planOf(db, stored);
  if (typeof plan === "string") throw new Error(`re-score ${job.id}: ${plan}`);
  const targets = new ScoringTargets(db, plan);
  const batchSize = options.batchSize ?? 500;
  const q = rescoreStatements(db);
  const scan = db.sqlite.prepare(
    `SELECT id, probe_id AS probeId, probe_version AS probeVersion, lexicon_version AS lexiconVersion, response
     FROM traces WHERE run_id = ? AND id > ? ORDER BY id LIMIT ?`,
  );
  // A bait change can only move INJECT and COPY fields and side effects: of the traces it could
  // touch, those (their labels and result read only for them).
  const baitTouches = db.sqlite
    .prepare(
      `SELECT id FROM traces WHERE id IN (SELECT value FROM json_each(?))
         AND (labels LIKE '%"INJECT"%' OR labels LIKE '%"COPY"%' OR instr(result, '"side_effect":') > 0)`,
    )
    .pluck();
  const targetFor = (t: { probeId: string; probeVersion: number; lexiconVersion: number }) =>
    targets.of(t.probeId, t.probeVersion, t.lexiconVersion);
  const choose: NonNullable<RescoreOptions["scoringFor"]> = (t) => {
    const target = targetFor(t);
    if (typeof target === "string") return target;
    return { probe: target.toProbe, version: storedVersionOf(db, target), lexicon: plan.lexicon };
  };
  return drive(db, job, options, () => {
    const j0 = jobRow(db, job.id);
    if (!j0) return null;
    const rows = scan.all(j0.runId, j0.afterTraceId, SCAN_ROWS) as ScanRow[];
    let ids: number[] = [];
    const bait: number[] = [];
    for (const r of rows) {
      const target = targetFor(r);
      // A trace whose versions are gone is listed as skipped by processTraces.
      if (typeof target === "string") ids.push(r.id);
      else if (target.footprint !== null) {
        if (askMayChange(target.footprint, r.response)) ids.push(r.id);
        else if (target.footprint.bait) bait.push(r.id);
      }
    }
    if (bait.length > 0) {
      ids.push(...(baitTouches.all(JSON.stringify(bait)) as number[]));
      ids.sort((a, b) => a - b);
    }
    let last = rows.length ? rows[rows.length - 1].id : j0.afterTraceId;
    if (ids.length > batchSize) {
      ids = ids.slice(0, batchSize);
      last = ids[ids.length - 1];
    }
    let scanned = 0;
    for (const r of rows) if (r.id <= last) scanned++;
    return writeSync(db, () => {
      const j = jobRow(db, job.id);
      // Deleted meanwhile, or another runner moved on from this scan: read again from its cursor.
      if (!j) return true;
      if (j.afterTraceId !== j0.afterTraceId) return false;
      const report = toReport(j);
      report.scanned += scanned;
      report.checked += ids.length;
      processTraces(db, q, j, report, ids, choose);
      const done = rows.length === 0;
      if (done) recordPlanScoring(db, j.runId, stored, targets);
      saveJob(db, j.id, report, last, done);
      return done;
    });
  });
}

interface ScanRow {
  id: number;
  probeId: string;
  probeVersion: number;
  lexiconVersion: number;
  response: string;
}

/**
 * Once a plan's re-score is done, every trace of a probe in the run scores as the plan says:
 * run_scoring gets, per probe, the plan's version (or the stored version of an older world with
 * the plan's configuration) and the plan's lexicon version.
 */
function recordPlanScoring(db: Db, runId: number, plan: StoredPlan, targets: ScoringTargets): void {
  const rows = db.sqlite
    .prepare(
      "SELECT DISTINCT probe_id AS probeId, probe_version AS probeVersion FROM run_scoring WHERE run_id = ?",
    )
    .all(runId) as { probeId: string; probeVersion: number }[];
  const byProbe = new Map<string, Set<number>>();
  for (const r of rows) {
    if (!byProbe.has(r.probeId)) byProbe.set(r.probeId, new Set());
    const t = targets.of(r.probeId, r.probeVersion, plan.lexicon);
    const v = typeof t === "string" ? r.probeVersion : storedVersionOf(db, t);
    byProbe.get(r.probeId)?.add(v);
  }
  for (const [probeId, versions] of byProbe)
    recordRunScorings(
      db,
      runId,
      probeId,
      [...versions].map((v) => ({ probeVersion: v, lexiconVersion: plan.lexicon })),
    );
}

/**
 * Scores the given traces again (inside the caller's transaction) with what `choose` gives each:
 * rewrites those whose result changes, re-signs unchanged ones with a stale signature, and gives
 * unchanged ones the versions they were scored with now (they give the same result).
 */
function processTraces(
  db: Db,
  q: RescoreStatements,
  j: JobRow,
  report: RescoreReport,
  ids: number[],
  choose: NonNullable<RescoreOptions["scoringFor"]>,
): void {
  if (ids.length === 0) return;
  const skip = (traceId: number, reason: string) => {
    report.skipped++;
    if (report.skips.length < MAX_SKIPS) report.skips.push({ trace_id: traceId, reason });
  };
  const counts: CountMoves = new Map();
  const signs: SignGroups = { always: j.config === null, groups: new Map() };
  const unchanged: [TraceRow, Ok][] = [];
  const reversion = new Map<string, number[]>();
  // Reviewed fields keep their human-label tags: a trace's tags are computed with its reviews.
  const reviews = currentReviewLabelsOf(db, ids);
  for (const t of q.traces.all(JSON.stringify(ids)) as TraceRow[]) {
    const chosen = choose(t);
    const r: Rescored =
      typeof chosen !== "string"
        ? withReviews(rescoreStored(t, compileProbe(chosen.probe, chosen.lexicon)), t, reviews.get(t.id))
        : { ok: false, reason: chosen };
    if (!r.ok || typeof chosen === "string") {
      skip(t.id, r.ok ? "no scoring" : r.reason);
      continue;
    }
    const versions = { probe: chosen.version, lexicon: chosen.lexicon.version };
    if (!r.changed) {
      unchanged.push([t, r]);
      if (versions.probe !== t.probeVersion || versions.lexicon !== t.lexiconVersion) {
        const key = `${versions.probe}:${versions.lexicon}`;
        const list = reversion.get(key) ?? [];
        list.push(t.id);
        reversion.set(key, list);
      }
      continue;
    }
    let before: TraceScore;
    try {
      before = JSON.parse(t.result) as TraceScore;
    } catch {
      // Its old tags cannot be told: rewriting it could leave its rows and the counts wrong.
      skip(t.id, "its stored result does not parse");
      continue;
    }
    rewriteTrace(db, q, j.runId, t, r, versions, counts, before, reviews.get(t.id), signs);
    report.changed++;
    addTransition(report.transitions, before, r.scored.score, t.id);
  }
  applySigns(q, j.runId, signs);
  report.resigned += resignTraces(db, q, j.runId, unchanged);
  for (const [key, list] of reversion) {
    const [probe, lexicon] = key.split(":").map(Number);
    q.setVersions.run(probe, lexicon, JSON.stringify(list));
  }
  applyCounts(q, j.runId, counts);
}

/**
 * Runs `step` until it says done (true), each in its own short write: the parser re-score's step
 * writes inside (writeSync here); the configuration re-score's reads first and writes itself. A
 * step returning null found the re-score gone (its run was deleted).
 */
function drive(db: Db, job: JobRow, options: RescoreOptions, step: () => boolean | null): RescoreReport {
  const total = rescoreStatements(db).total.get(job.runId) as number;
  let current = job;
  let batches = 0;
  const selfWriting = current.config !== null;
  while (current.status === "pending") {
    if (options.maxBatches !== undefined && batches >= options.maxBatches) break;
    let done: boolean | null;
    try {
      done = selfWriting ? step() : writeSync(db, step);
    } catch (e) {
      // The transaction rolled back: forget tag ids it may have created.
      resetTagCache(db);
      throw e;
    }
    batches++;
    const now = jobRow(db, job.id);
    if (!now || done === null) return { ...toReport(current), status: "done" };
    current = now;
    options.onProgress?.({ run: current.run, scanned: current.scanned, total, changed: current.changed });
    if (done) break;
  }
  return toReport(current);
}

/**
 * Queues and runs a re-score of each run (by id) that reads every trace again from its original
 * record, scored with the versions that scored it unless `options` chooses others (a parser
 * re-score); returns their reports in order. Not the command line's re-score with the current
 * configuration (lib/cli/tuneFlow.ts: rescoreWithCurrentConfiguration).
 */
export function rereadRuns(
  db: Db,
  runIds: number[],
  reason: string,
  options: RescoreOptions = {},
): RescoreReport[] {
  return runIds.map((runId) => runRescore(db, queueRescore(db, runId, reason), options));
}

/** rereadRuns for every run. */
export function rereadAllRuns(db: Db, reason: string, options: RescoreOptions = {}): RescoreReport[] {
  const ids = db.sqlite.prepare("SELECT id FROM runs ORDER BY id").pluck().all() as number[];
  return rereadRuns(db, ids, reason, options);
}

/** Finishes every queued or stopped re-score (the one-time re-score after an upgrade is queued by a migration). */
export function runPendingRescores(db: Db, options: RescoreOptions = {}): RescoreReport[] {
  return pendingRescores(db).map((id) => runRescore(db, id, options));
}
