import { sql } from "drizzle-orm";
import {
  blob,
  index,
  integer,
  primaryKey,
  real,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";

/**
 * The database. Two tables live outside this file because drizzle-kit cannot express them; they
 * are created by hand-written migrations (db/migrations/0001_*.sql, 0002_*.sql) and read with raw SQL:
 * - `trace_tags(run_id, tag_id, trace_id, sig)` WITHOUT ROWID: one row per filterable fact of a
 *   trace (a field's label, an INJECT reason, a flag, the gate verdict, the probe, human
 *   agreement), so any filter combination is an intersection of index ranges, paged by trace id;
 *   `sig` is the trace's tag signature (lib/ingest/tagSignature.ts), so an intersection skips
 *   most non-matching traces of its rarest range without a lookup each.
 * - `trace_search`: a contentless FTS5 index over response text and argument values.
 */

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

export const probes = sqliteTable("probes", {
  id: text().primaryKey(),
  currentVersion: integer("current_version").notNull(),
  builtin: integer({ mode: "boolean" }).notNull().default(false),
  createdAt: text("created_at").notNull().default(now),
  updatedAt: text("updated_at").notNull().default(now),
});

/** Every change to a probe, its world or its scoring configuration is a new version. */
export const probeVersions = sqliteTable(
  "probe_versions",
  {
    probeId: text("probe_id")
      .notNull()
      .references(() => probes.id, { onDelete: "cascade" }),
    version: integer().notNull(),
    /** The validated probe definition as JSON. */
    definition: text().notNull(),
    /** SHA-256 of the canonical definition: re-adding the same probe adds no version. */
    digest: text().notNull(),
    /** builtin, file:<name>, inline:<source>, when2call. */
    origin: text().notNull(),
    createdAt: text("created_at").notNull().default(now),
  },
  (t) => [
    primaryKey({ columns: [t.probeId, t.version] }),
    index("probe_versions_digest").on(t.probeId, t.digest),
  ],
);

export const runs = sqliteTable("runs", {
  id: integer().primaryKey({ autoIncrement: true }),
  name: text().notNull().unique(),
  /** The model the runner asked for, pinned by the run's first accepted record (null until then). */
  model: text(),
  params: text(),
  traceCount: integer("trace_count").notNull().default(0),
  rejectedCount: integer("rejected_count").notNull().default(0),
  /** Traces whose payload named another model. */
  mismatchCount: integer("mismatch_count").notNull().default(0),
  firstStartedAt: text("first_started_at"),
  lastStartedAt: text("last_started_at"),
  createdAt: text("created_at").notNull().default(now),
  updatedAt: text("updated_at").notNull().default(now),
});

export const ingestBatches = sqliteTable(
  "ingest_batches",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    /** cli, upload or demo. */
    origin: text().notNull(),
    files: text().notNull(),
    /** running, done, failed (stopped by an error) or interrupted (its process died). */
    status: text().notNull().default("running"),
    records: integer().notNull().default(0),
    ingested: integer().notNull().default(0),
    duplicates: integer().notNull().default(0),
    rejected: integer().notNull().default(0),
    startedAt: text("started_at").notNull().default(now),
    finishedAt: text("finished_at"),
    /** The process running it (on `host`): a `running` ingest whose process is gone was interrupted. */
    pid: integer(),
    host: text(),
    /** When its last batch was written: decides for an ingest running on another host. */
    heartbeatAt: text("heartbeat_at"),
    /** The summary's runs, unreadable files and, when it stopped, why (JSON; text). */
    runs: text(),
    unreadable: text(),
    error: text(),
  },
  (t) => [index("ingest_batches_running").on(t.status).where(sql`${t.status} = 'running'`)],
);

/** A bad record, kept once per (run, source, line, content), reported again on every ingest. */
export const ingestErrors = sqliteTable(
  "ingest_errors",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    runId: integer("run_id").references(() => runs.id, { onDelete: "cascade" }),
    batchId: integer("batch_id").references(() => ingestBatches.id, { onDelete: "set null" }),
    file: text().notNull(),
    source: text().notNull(),
    line: integer().notNull(),
    reason: text().notNull(),
    /** The record's text, cut at 64 KiB. */
    raw: text().notNull(),
    hash: blob({ mode: "buffer" }).notNull(),
    createdAt: text("created_at").notNull().default(now),
  },
  (t) => [
    uniqueIndex("ingest_errors_identity").on(t.runId, t.source, t.line, t.hash),
    uniqueIndex("ingest_errors_runless").on(t.source, t.line, t.hash).where(sql`${t.runId} IS NULL`),
    index("ingest_errors_batch").on(t.batchId),
    index("ingest_errors_batch_order").on(t.batchId, t.file, t.line),
  ],
);

export const traces = sqliteTable(
  "traces",
  {
    /** The trace_id: unique in the database, in ingest order. */
    id: integer().primaryKey(),
    runId: integer("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    batchId: integer("batch_id"),
    probeId: text("probe_id").notNull(),
    probeVersion: integer("probe_version").notNull(),
    /** The record's own id, when it has one. */
    extId: text("ext_id"),
    /** 16 bytes of SHA-256 over (id) or (source, line, content hash): the identity within the run. */
    identity: blob({ mode: "buffer" }).notNull(),
    /** SHA-256 of the record's bytes without line endings or byte-order mark. */
    hash: blob({ mode: "buffer" }).notNull(),
    source: text().notNull(),
    line: integer().notNull(),
    form: text().notNull(),
    model: text(),
    payloadModel: text("payload_model"),
    startedAt: text("started_at"),
    latencyMs: real("latency_ms"),
    gate: text().notNull(),
    /** Compact per-field labels for list rows: {"timezone":"INJECT",...}. */
    labels: text().notNull(),
    /** The score in the shape `assumeprobe score` prints (fields, flags, gate, side_effect). */
    result: text().notNull(),
    /** The normalized response {text, tool_calls, fenced}. */
    response: text().notNull(),
    /** Labels the producing harness recorded, per field (JSON), when it recorded any. */
    recorded: text(),
    /** Imported human labels per field (JSON), when the record carried any. */
    human: text(),
    /**
     * The original record, byte for byte (BLOB when it is not valid UTF-8). The provider payload,
     * world state, side effect and parameters are read back from it for display.
     */
    original: blob({ mode: "buffer" }).notNull(),
  },
  (t) => [uniqueIndex("traces_identity").on(t.runId, t.identity), index("traces_run").on(t.runId, t.id)],
);

/** Names of the filterable tags, interned so trace_tags rows stay small. */
export const tagNames = sqliteTable("tag_names", {
  id: integer().primaryKey(),
  name: text().notNull().unique(),
});

/** Per run and probe, how many traces carry each tag: no page scans traces to count. */
export const runCounts = sqliteTable(
  "run_counts",
  {
    runId: integer("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    probeId: text("probe_id").notNull(),
    tagId: integer("tag_id").notNull(),
    n: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.probeId, t.tagId] })],
);

/** A reviewer's label for one field of one trace; history is every row, the newest is current. */
export const reviews = sqliteTable(
  "reviews",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    traceId: integer("trace_id")
      .notNull()
      .references(() => traces.id, { onDelete: "cascade" }),
    field: text().notNull(),
    label: text().notNull(),
    reviewer: text().notNull(),
    note: text().notNull().default(""),
    createdAt: text("created_at").notNull().default(now),
  },
  (t) => [index("reviews_trace").on(t.traceId, t.field, t.id)],
);

export const fixtureSets = sqliteTable("fixture_sets", {
  id: integer().primaryKey({ autoIncrement: true }),
  name: text().notNull().unique(),
  builtin: integer({ mode: "boolean" }).notNull().default(false),
  createdAt: text("created_at").notNull().default(now),
});

/** A curated fixture: the normalized response, a snapshot of the probe's world, the human label. */
export const fixtures = sqliteTable(
  "fixtures",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    setId: integer("set_id")
      .notNull()
      .references(() => fixtureSets.id, { onDelete: "cascade" }),
    probeId: text("probe_id").notNull(),
    /** {id, system, user, hidden, redacted, tool, fields} at the time of curation. */
    world: text().notNull(),
    response: text().notNull(),
    field: text().notNull(),
    expected: text().notNull(),
    reviewer: text().notNull(),
    note: text().notNull().default(""),
    sourceTraceId: integer("source_trace_id").references(() => traces.id, { onDelete: "set null" }),
    createdAt: text("created_at").notNull().default(now),
  },
  (t) => [index("fixtures_set").on(t.setId, t.id), index("fixtures_source").on(t.sourceTraceId)],
);

export const fixtureRuns = sqliteTable("fixture_runs", {
  id: integer().primaryKey({ autoIncrement: true }),
  setId: integer("set_id")
    .notNull()
    .references(() => fixtureSets.id, { onDelete: "cascade" }),
  /** Package version plus probe configuration versions. */
  scorerVersion: text("scorer_version").notNull(),
  /** A what-if configuration, when the re-run used one. */
  config: text(),
  passed: integer().notNull(),
  failed: integer().notNull(),
  createdAt: text("created_at").notNull().default(now),
});

export const fixtureResults = sqliteTable(
  "fixture_results",
  {
    runId: integer("run_id")
      .notNull()
      .references(() => fixtureRuns.id, { onDelete: "cascade" }),
    fixtureId: integer("fixture_id")
      .notNull()
      .references(() => fixtures.id, { onDelete: "cascade" }),
    label: text().notNull(),
    passed: integer({ mode: "boolean" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.fixtureId] }), index("fixture_results_fixture").on(t.fixtureId)],
);

/**
 * A re-score of one run's stored traces (db/queries/rescore.ts): progress (traces up to
 * `after_trace_id` are done, so a stopped re-score resumes there), what it changed, and its
 * transitions (`report`, JSON). `config` names the configuration it applied; null: each trace's
 * own probe version.
 */
export const rescores = sqliteTable(
  "rescores",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    runId: integer("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    reason: text().notNull(),
    config: text(),
    /** pending (not started, or stopped part way) or done. */
    status: text().notNull().default("pending"),
    afterTraceId: integer("after_trace_id").notNull().default(0),
    scanned: integer().notNull().default(0),
    changed: integer().notNull().default(0),
    /** Unchanged traces whose tag rows got their current signature. */
    resigned: integer().notNull().default(0),
    /** Traces whose original record no longer reads (left as stored). */
    skipped: integer().notNull().default(0),
    report: text().notNull().default("{}"),
    createdAt: text("created_at").notNull().default(now),
    finishedAt: text("finished_at"),
  },
  (t) => [index("rescores_run").on(t.runId, t.id), index("rescores_status").on(t.status, t.id)],
);

/**
 * A browser session of a server with an access token: the SHA-256 of the cookie's random id, the
 * fingerprint of the token it was made with (a changed token ends it), the reviewer's name given
 * at login (reviews made in that session carry it), and when it ends.
 */
export const sessions = sqliteTable(
  "sessions",
  {
    idHash: text("id_hash").primaryKey(),
    tokenFingerprint: text("token_fingerprint").notNull(),
    reviewer: text(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [index("sessions_expires").on(t.expiresAt)],
);
