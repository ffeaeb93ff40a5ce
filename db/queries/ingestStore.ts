import { turnOf } from "../../lib/ingest/agentTurns";
import { type RunKind, runKindOfForm } from "../../lib/ingest/gateLogForm";
import type { IngestStore, WriteOutcome } from "../../lib/ingest/pipeline";
import { type PreparedError, type PreparedTrace, rejectedTrace } from "../../lib/ingest/prepare";
import { packTagRow } from "../../lib/ingest/tagSignature";
import type { Probe } from "../../lib/probe/schema";
import type { PackedOriginals } from "../../lib/storage/originalBlocks";
import type { Db } from "../client";
import { WriteWaitError, writeSync } from "../write";
import { reevaluateTurns, type TouchedTurn } from "./agentTurns";
import { beginIngestBatch, claimRunlessErrors, finishIngestBatch, recountRejected } from "./ingestBatches";
import { currentLexicon } from "./lexicon";
import { blockStatements, packTraceOriginals, writeBlocks } from "./originals";
import { getProbe, listProbes, saveProbe } from "./probes";
import { resetTagCache, tagId } from "./tags";

/** A record the database refused while its batch was written (the batch is written again without it). */
class RecordRefused extends Error {
  constructor(
    readonly index: number,
    override readonly cause: unknown,
  ) {
    super(messageOf(cause));
  }
}

/** Past this many refused records in one batch, the store itself is taken to be failing. */
const MAX_REFUSED_PER_BATCH = 16;

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** SQLite result codes that say the database (disk, lock, file, memory) failed, not one record. */
const STORE_CODES =
  /^SQLITE_(BUSY|LOCKED|NOMEM|READONLY|IOERR|CORRUPT|FULL|CANTOPEN|PROTOCOL|NOTADB|INTERRUPT|ABORT|PERM|SCHEMA|NOLFS|AUTH)/;

function isStoreFailure(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code;
  return typeof code === "string" && STORE_CODES.test(code);
}

/** The writing half of the store: one transaction per batch of traces and errors. */
export interface TraceWriter {
  /**
   * `packed`: the traces' originals already packed (packOriginals over their originals, grouped by
   * run name), as the threaded store sends them; then a trace's own `original` is not read.
   */
  write(
    batchId: number,
    traces: PreparedTrace[],
    errors: PreparedError[],
    packed?: PackedOriginals,
  ): WriteOutcome[];
}

interface RunRow {
  id: number;
  name: string;
  model: string | null;
  kind: RunKind;
}

/** Why a record of one kind is refused in a run of the other. */
function kindRefusal(run: RunRow): string {
  return run.kind === "gate_log"
    ? `run "${run.name}" is a gate-log run: it holds gate decisions only (name another run for this record)`
    : `run "${run.name}" is a probe run: a gate decision goes in a gate-log run of its own (name another run with --run or the record's run)`;
}

/**
 * The database side of ingest: prepared statements on the raw connection (this is the hot path),
 * one transaction per batch of records, so a killed ingest leaves whole batches or nothing.
 */
export function createIngestStore(db: Db): IngestStore {
  const writer = createTraceWriter(db);
  return {
    ...createBatchStore(db),
    write(batchId, traces, errors) {
      return writer.write(batchId, traces, errors);
    },
  };
}

/** Probes and ingest batches: everything an ingest store does but writing traces. */
export function createBatchStore(db: Db): Omit<IngestStore, "write"> {
  return {
    probe(id: string) {
      const p = getProbe(db, id);
      return p ? { probe: p.probe, version: p.version } : undefined;
    },
    saveProbe(probe: Probe, origin: string) {
      return saveProbe(db, probe, origin);
    },
    probes() {
      return listProbes(db).map((p) => p.probe);
    },
    lexicon() {
      return currentLexicon(db);
    },
    beginBatch(origin: string, files: string[]) {
      return beginIngestBatch(db, origin, files);
    },
    finishBatch(batchId, summary, end) {
      finishIngestBatch(db, batchId, summary, end);
    },
  };
}

const TRACE_COLUMNS = `run_id, batch_id, probe_id, probe_version, ext_id, identity, hash, source, line, form,
  model, payload_model, started_at, latency_ms, gate, labels, result, response, recorded, human, original,
  original_block, original_at, original_len, lexicon_version`;

/** The insert of one trace row (`verb`: INSERT, INSERT OR IGNORE), taking traceRow's values. */
export function insertTraceSql(verb: string): string {
  return `${verb} INTO traces(${TRACE_COLUMNS}) VALUES (${TRACE_COLUMNS.replace(/\w+/g, "?")})`;
}

/** An original stored in a block: nothing inline. */
const PACKED = Buffer.alloc(0);

/**
 * A prepared trace's row values, in insertTraceSql's column order; `packed` is where its original
 * was stored (block id, offset, length; db/queries/originals.ts), or null to keep it inline.
 */
export function traceRow(
  runId: number,
  batchId: number | null,
  t: PreparedTrace,
  packed: [number, number, number] | null,
): unknown[] {
  return [
    runId,
    batchId,
    t.probeId,
    t.probeVersion,
    t.extId,
    t.identity,
    t.hash,
    t.source,
    t.line,
    t.form,
    t.model,
    t.payloadModel,
    t.startedAt,
    t.latencyMs,
    t.gate,
    t.labels,
    t.result,
    t.response,
    t.recorded,
    t.human,
    packed === null ? t.original : PACKED,
    packed?.[0] ?? null,
    packed?.[1] ?? null,
    packed?.[2] ?? null,
    t.lexiconVersion,
  ];
}

/** Writes batches of stored traces and errors, each batch in one transaction. */
export function createTraceWriter(db: Db): TraceWriter {
  const s = db.sqlite;
  const bq = blockStatements(s);
  const q = {
    runByName: s.prepare("SELECT id, name, model, kind FROM runs WHERE name = ?"),
    insertRun: s.prepare(
      "INSERT INTO runs(name, model, params, kind) VALUES (?, ?, ?, ?) RETURNING id, name, model, kind",
    ),
    pinRun: s.prepare("UPDATE runs SET model = ?, params = coalesce(params, ?) WHERE id = ?"),
    insertTrace: s.prepare(insertTraceSql("INSERT OR IGNORE")),
    existingHash: s.prepare("SELECT hash FROM traces WHERE run_id = ? AND identity = ?").pluck(),
    // One statement per (run, probe, tag) and batch: the rows come as a JSON array of
    // `trace id * 2^32 + signature` in ascending id order (packTagRow: a shift is far cheaper than
    // a JSON pair per row), so rows append to the end of each tag's range. OR IGNORE, and
    // `changes`, count exactly the rows that were new, as one insert per row would.
    // A trace id too large to pack comes negated, and keeps the default signature (-1).
    insertTags: s.prepare(
      `INSERT OR IGNORE INTO trace_tags(run_id, tag_id, trace_id, sig) SELECT ?, ?,
        CASE WHEN value < 0 THEN -value ELSE value >> 32 END,
        CASE WHEN value < 0 THEN -1 ELSE value & 4294967295 END FROM json_each(?)`,
    ),
    insertSearch: s.prepare("INSERT INTO trace_search(rowid, body) VALUES (?, ?)"),
    addCount: s.prepare(`INSERT INTO run_counts(run_id, probe_id, tag_id, n) VALUES (?, ?, ?, ?)
      ON CONFLICT(run_id, probe_id, tag_id) DO UPDATE SET n = n + excluded.n`),
    updateRun: s.prepare(`UPDATE runs SET trace_count = trace_count + ?, mismatch_count = mismatch_count + ?,
      first_started_at = CASE WHEN ? IS NULL THEN first_started_at WHEN first_started_at IS NULL OR ? < first_started_at THEN ? ELSE first_started_at END,
      last_started_at = CASE WHEN ? IS NULL THEN last_started_at WHEN last_started_at IS NULL OR ? > last_started_at THEN ? ELSE last_started_at END,
      updated_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = ?`),
    // Once per (run, source, line, content); a rejected record of no run once per (source, line, content).
    insertError: s
      .prepare(`INSERT INTO ingest_errors(run_id, batch_id, file, source, line, reason, raw, hash)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT(run_id, source, line, hash) DO UPDATE SET batch_id = excluded.batch_id, reason = excluded.reason, file = excluded.file
      ON CONFLICT(source, line, hash) WHERE run_id IS NULL DO UPDATE SET batch_id = excluded.batch_id, reason = excluded.reason, file = excluded.file
      RETURNING id`)
      .pluck(),
    // Every ingest lists the rejected records it read, however often a line is read again.
    linkError:
      s.prepare(`INSERT INTO ingest_error_batches(batch_id, error_id, file, line, reason) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT(batch_id, file, line, error_id) DO UPDATE SET reason = excluded.reason`),
    // The rejection of a line later stored (in its run, its file's default run, or no run).
    dropStaleErrors: s
      .prepare(`DELETE FROM ingest_errors WHERE source = ? AND line = ?
        AND (run_id IS NULL OR run_id = ? OR run_id = (SELECT id FROM runs WHERE name = ?)) RETURNING run_id`)
      .pluck(),
    heartbeat: s.prepare(
      "UPDATE ingest_batches SET heartbeat_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = ?",
    ),
  };
  const runs = new Map<string, RunRow>();
  /** Sources with stored errors: only their lines can hold a stale rejection. */
  const errorSources = new Set(
    s.prepare("SELECT DISTINCT source FROM ingest_errors").pluck().all() as string[],
  );

  function runFor(name: string, params: string | null, kind: RunKind): RunRow {
    let r = runs.get(name) ?? (q.runByName.get(name) as RunRow | undefined);
    if (!r) r = q.insertRun.get(name, null, params, kind) as RunRow;
    runs.set(name, r);
    return r;
  }

  /**
   * The run each file of an ingest sent its first good record to (`batch id, file` → run id): its
   * rejected records count against it (DESIGN.md); before that record is seen they belong to no run.
   */
  const goodRun = new Map<string, number>();

  const writeBatch = (
    batchId: number,
    traces: PreparedTrace[],
    errors: PreparedError[],
    refused: Map<number, string>,
    packed: PackedOriginals,
  ) => {
    const blocks = writeBlocks(bq, packed);
    // Another process may have created or pinned runs since the last batch.
    runs.clear();
    const outcomes: WriteOutcome[] = [];
    /** Packed tag rows (packTagRow) per (run, probe) and tag, in insertion (ascending id) order. */
    const tagged = new Map<string, { runId: number; probeId: string; byTag: Map<number, string[]> }>();
    const runTotals = new Map<
      number,
      { n: number; mismatch: number; first: string | null; last: string | null }
    >();
    const touchedForErrors = new Set<number>();
    /** Agent turns this batch added a generation to (lib/ingest/agentTurns.ts), by run and key. */
    const turns = new Map<string, TouchedTurn>();
    // Records turned down here are stored and counted like any rejected record.
    const turnedDown: PreparedError[] = [];
    const reject = (t: PreparedTrace, reason: string) => {
      outcomes.push({ rejected: reason });
      turnedDown.push(rejectedTrace({ ...t, original: blocks.original(t, traces.indexOf(t)) }, reason));
    };
    /** Files whose first good record is in this batch (kept in goodRun once the batch commits). */
    const claimed = new Map<string, { file: string; runId: number }>();
    const runOfFile = (file: string) => {
      const key = `${batchId}\u0000${file}`;
      return goodRun.get(key) ?? claimed.get(key)?.runId ?? null;
    };
    const good = (t: PreparedTrace, runId: number) => {
      if (runOfFile(t.file) === null) claimed.set(`${batchId}\u0000${t.file}`, { file: t.file, runId });
    };
    for (let i = 0; i < traces.length; i++) {
      const t = traces[i];
      const why = refused.get(i);
      if (why !== undefined) {
        reject(t, why);
        continue;
      }
      try {
        const run = runFor(t.runName, t.runParams, runKindOfForm(t.form));
        if (run.kind !== runKindOfForm(t.form)) {
          reject(t, kindRefusal(run));
          continue;
        }
        if (run.model === null) {
          q.pinRun.run(t.model, t.runParams, run.id);
          run.model = t.model;
        } else if (run.model !== t.model) {
          // A record already stored is a duplicate whatever model a re-ingest defaults it to.
          const stored = q.existingHash.get(run.id, t.identity) as Buffer | undefined;
          if (stored?.equals(t.hash)) {
            outcomes.push("duplicate");
            good(t, run.id);
          } else reject(t, `model "${t.model}" differs from run "${run.name}"'s pinned model "${run.model}"`);
          continue;
        }
        const info = q.insertTrace.run(traceRow(run.id, batchId, t, blocks.values(i, run.id)));
        if (info.changes === 0) {
          const existing = q.existingHash.get(run.id, t.identity) as Buffer | undefined;
          if (t.extId !== null && existing && !existing.equals(t.hash)) {
            reject(t, `id "${t.extId}" is already used in run "${run.name}" for other content`);
          } else {
            outcomes.push("duplicate");
            good(t, run.id);
          }
          continue;
        }
        const traceId = Number(info.lastInsertRowid);
        blocks.keep(i);
        good(t, run.id);
        // A line rejected while it was still being written (the last line of a growing file) is
        // gone once the completed line is stored. (An Inspect sample's generations share its line:
        // one stored says nothing of another rejected.)
        if (errorSources.has(t.source) && t.form !== "inspect") {
          for (const id of q.dropStaleErrors.all(t.source, t.line, run.id, t.defaultRun) as (number | null)[])
            if (id !== null) touchedForErrors.add(id);
        }
        const rp = `${run.id}\u0000${t.probeId}`;
        let group = tagged.get(rp);
        if (!group) {
          group = { runId: run.id, probeId: t.probeId, byTag: new Map() };
          tagged.set(rp, group);
        }
        const row = packTagRow(traceId, t.sig);
        for (const name of t.tags) {
          const id = tagId(db, name);
          const rows = group.byTag.get(id);
          if (rows) rows.push(row);
          else group.byTag.set(id, [row]);
        }
        if (t.search) q.insertSearch.run(traceId, t.search);
        const turn = turnOf(t.form, t.extId);
        if (turn !== null) turns.set(`${run.id}\u0000${turn}`, { runId: run.id, key: turn });
        const tot = runTotals.get(run.id) ?? { n: 0, mismatch: 0, first: null, last: null };
        tot.n++;
        if (t.modelMismatch) tot.mismatch++;
        if (t.startedAt) {
          if (tot.first === null || t.startedAt < tot.first) tot.first = t.startedAt;
          if (tot.last === null || t.startedAt > tot.last) tot.last = t.startedAt;
        }
        runTotals.set(run.id, tot);
        outcomes.push("ingested");
      } catch (e) {
        // A failure of the database itself stops the ingest; anything else failed for this record.
        if (e instanceof WriteWaitError || isStoreFailure(e)) throw e;
        throw new RecordRefused(i, e);
      }
    }
    blocks.dropUnused();
    for (const g of tagged.values()) {
      for (const [id, rows] of g.byTag) {
        // A tag named twice is one trace_tags row: count it once, so run_counts match them.
        const n = q.insertTags.run(g.runId, id, `[${rows.join(",")}]`).changes;
        if (n > 0) q.addCount.run(g.runId, g.probeId, id, n);
      }
    }
    // Once the batch's tags are counted: a turn's choice reads them and moves its flag's count.
    if (turns.size > 0) reevaluateTurns(db, turns.values());
    for (const [runId, t] of runTotals) {
      q.updateRun.run(t.n, t.mismatch, t.first, t.first, t.first, t.last, t.last, t.last, runId);
    }
    // Their earlier rejected records (run-less until now) join the run.
    for (const c of claimed.values())
      if (claimRunlessErrors(db, batchId, c.file, c.runId) > 0) touchedForErrors.add(c.runId);
    for (const e of [...errors, ...turnedDown]) {
      // Rejected records alone never create a run.
      const runId = runOfFile(e.file);
      const errorId = q.insertError.get(runId, batchId, e.file, e.source, e.line, e.reason, e.raw, e.hash);
      q.linkError.run(batchId, errorId, e.file, e.line, e.reason);
      errorSources.add(e.source);
      if (runId !== null) touchedForErrors.add(runId);
    }
    for (const runId of touchedForErrors) recountRejected(db, runId);
    q.heartbeat.run(batchId);
    return { outcomes, claimed };
  };

  return {
    write(batchId, traces, errors, given) {
      /** Records the database refused in an earlier try of this batch: rejected, the rest written again. */
      const refused = new Map<number, string>();
      // Compressed before the write lock is taken; a try again reuses it.
      const packed = given ?? packTraceOriginals(traces);
      for (;;) {
        try {
          const { outcomes, claimed } = writeSync(db, () =>
            writeBatch(batchId, traces, errors, refused, packed),
          );
          for (const [key, c] of claimed) goodRun.set(key, c.runId);
          return outcomes;
        } catch (e) {
          // The transaction rolled back: forget runs and tags it may have created.
          runs.clear();
          resetTagCache(db);
          if (!(e instanceof RecordRefused)) throw e;
          if (refused.size >= MAX_REFUSED_PER_BATCH) throw e.cause;
          refused.set(e.index, `the database refused the record: ${messageOf(e.cause)}`);
        }
      }
    },
  };
}
