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
 * Drizzle cannot express the CHECK on review labels, WITHOUT ROWID, or the trigger that fills
 * `run_scoring` either: 0006_review_loop.sql holds them.
 */

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

export const probes = sqliteTable("probes", {
  id: text().primaryKey(),
  currentVersion: integer("current_version").notNull(),
  builtin: integer({ mode: "boolean" }).notNull().default(false),
  /**
   * Its scoring configuration was edited in the product (tune page, `probes edit`): later
   * records, files and built-in updates keep that configuration (0009_lexicon.sql).
   */
  configurationEdited: integer("configuration_edited", { mode: "boolean" }).notNull().default(false),
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
    /** builtin, file:<name>, inline:<source>, when2call, import:<file>, edit, rescore. */
    origin: text().notNull(),
    /** Who saved a version edited in the product; null for the others. */
    savedBy: text("saved_by"),
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
  /**
   * What the run holds (lib/ingest/gateLog.ts): `probe`, traces scored with probes, or `gate_log`,
   * the decisions of a gate in the user's own agent. Set by the run's first record; the other kind
   * is refused.
   */
  kind: text().notNull().default("probe"),
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

/**
 * A bad record, kept once per (run, source, line, content), reported again on every ingest (each
 * ingest's list is in ingest_error_batches; `batch_id` is the last ingest that read it).
 */
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

/**
 * The ingests that read each rejected record, with the file, line and reason as that ingest saw
 * them: every ingest lists its own, however often its lines are read again (a run counts each
 * once, in ingest_errors).
 */
export const ingestErrorBatches = sqliteTable(
  "ingest_error_batches",
  {
    batchId: integer("batch_id")
      .notNull()
      .references(() => ingestBatches.id, { onDelete: "cascade" }),
    errorId: integer("error_id")
      .notNull()
      .references(() => ingestErrors.id, { onDelete: "cascade" }),
    file: text().notNull(),
    line: integer().notNull(),
    reason: text().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.batchId, t.file, t.line, t.errorId] }),
    index("ingest_error_batches_error").on(t.errorId),
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
    /** The lexicon version that scored it (0: none); a re-score that leaves its result keeps both versions. */
    lexiconVersion: integer("lexicon_version").notNull().default(0),
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
    /**
     * Where the original lives once packed (lib/storage/originalBlocks.ts): its block, offset and
     * length; `original` is then empty. A row with no block keeps its original inline (rows stored
     * before packing, until `assumeprobe db pack` reaches them). Read both through original_of().
     */
    originalBlock: integer("original_block"),
    originalAt: integer("original_at"),
    originalLen: integer("original_len"),
    /**
     * 1 when the score carries `agent_step` (lib/ingest/agentTurns.ts): kept beside the flag so
     * the turn index holds only the generations that count, the ones a turn's next choice reads.
     */
    agentStep: integer("agent_step").notNull().default(0),
  },
  (t) => [
    uniqueIndex("traces_identity").on(t.runId, t.identity),
    index("traces_run").on(t.runId, t.id),
    /** Rows whose original is still inline (stored before blocks): what `db pack` and setup convert. */
    index("traces_inline").on(t.id).where(sql`${t.originalBlock} IS NULL`),
    /**
     * An agent turn's counted generations (lib/ingest/agentTurns.ts): the spans whose ext_id
     * starts with its key and that are no agent step. The forms are TURN_FORMS, word for word.
     */
    index("traces_turn")
      .on(t.runId, t.extId)
      .where(sql`${t.form} IN ('otlp', 'phoenix', 'langfuse', 'inspect') AND ${t.agentStep} = 0`),
  ],
);

/** Original records, packed into compressed blocks (lib/storage/originalBlocks.ts). */
export const originalBlocks = sqliteTable(
  "original_blocks",
  {
    /** Never reused (AUTOINCREMENT): a connection's cache of inflated blocks goes by it. */
    id: integer().primaryKey({ autoIncrement: true }),
    /** The run whose traces' originals it holds: a block never mixes runs, and goes with its run. */
    runId: integer("run_id").notNull(),
    /** 1: deflate-raw. */
    codec: integer().notNull(),
    body: blob({ mode: "buffer" }).notNull(),
  },
  (t) => [index("original_blocks_run").on(t.runId)],
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
  (t) => [
    primaryKey({ columns: [t.runId, t.probeId, t.tagId] }),
    /** The runs carrying a tag (a queue rule's runs, the agreement pairs) without reading every run's counts. */
    index("run_counts_tag").on(t.tagId, t.runId),
  ],
);

/**
 * Runs whose traces up to `last_id` still lack the review queue's and agreement's tags (stored
 * before those tags existed): tagged in batches by db/queries/tagBackfill.ts; a done run's row goes.
 */
export const tagBackfill = sqliteTable("tag_backfill", {
  runId: integer("run_id")
    .primaryKey()
    .references(() => runs.id, { onDelete: "cascade" }),
  afterId: integer("after_id").notNull().default(0),
  lastId: integer("last_id").notNull(),
});

/**
 * Reviews: append-only. A field's current review is its newest; a clear is a review with no label;
 * `replaces` is the review that was current when this one was written (what undo goes back to).
 * Written only through db/queries/reviews.ts, which keeps the trace's human-label tags and the
 * run's counts in step.
 */
export const reviews = sqliteTable(
  "reviews",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    traceId: integer("trace_id")
      .notNull()
      .references(() => traces.id, { onDelete: "cascade" }),
    field: text().notNull(),
    /** null: a clear (the human label falls back to the imported one). */
    label: text(),
    reviewer: text().notNull(),
    note: text().notNull().default(""),
    replaces: integer(),
    createdAt: text("created_at").notNull().default(now),
    /** The blind round a `blind` or `adjudication` review belongs to (docs: SCHEMA of blind rounds). */
    roundId: integer("round_id").references(() => reviewRounds.id, { onDelete: "set null" }),
    /** 'review' (ordinary), 'blind' (made in a round without seeing the scorer or others), 'adjudication'. */
    kind: text().notNull().default("review"),
  },
  (t) => [
    index("reviews_trace").on(t.traceId, t.field, t.id),
    /** Agreement and round states: each reviewer's first blind review of a field without a scan. */
    index("reviews_kind").on(t.kind, t.traceId, t.field, t.reviewer, t.id),
  ],
);

/**
 * A blind round: fields in a scope (a run, a probe or a model) offered to reviewers without the
 * scorer's label or other reviews, up to `reviews_per_field` reviews each (lib/review/rounds.ts).
 */
export const reviewRounds = sqliteTable("review_rounds", {
  id: integer().primaryKey({ autoIncrement: true }),
  name: text().notNull().unique(),
  /** 'run' | 'probe' | 'model'. */
  scopeKind: text("scope_kind").notNull(),
  scopeValue: text("scope_value").notNull(),
  reviewsPerField: integer("reviews_per_field").notNull().default(2),
  /** JSON array of reviewer names; null: anyone. */
  participants: text(),
  /** The seed of the round's field order. */
  seed: integer().notNull().default(0),
  createdBy: text("created_by").notNull(),
  createdAt: text("created_at").notNull().default(now),
  closedAt: text("closed_at"),
});

/**
 * A round's fields in the round's (seeded, random) order: `pos` is the order. `taken` counts the
 * blind reviews plus live leases; `open` is 1 while taken < the round's N (the claim reads only
 * open rows, by index). `state`: open | single | agreed | disputed | adjudicated.
 */
export const roundFields = sqliteTable(
  "round_fields",
  {
    roundId: integer("round_id")
      .notNull()
      .references(() => reviewRounds.id, { onDelete: "cascade" }),
    pos: integer().notNull(),
    traceId: integer("trace_id")
      .notNull()
      .references(() => traces.id, { onDelete: "cascade" }),
    field: text().notNull(),
    taken: integer().notNull().default(0),
    reviewed: integer().notNull().default(0),
    open: integer().notNull().default(1),
    state: text().notNull().default("open"),
  },
  (t) => [
    primaryKey({ columns: [t.roundId, t.pos] }),
    uniqueIndex("round_fields_field").on(t.roundId, t.traceId, t.field),
    index("round_fields_open").on(t.roundId, t.open, t.pos),
    index("round_fields_state").on(t.roundId, t.state, t.pos),
    index("round_fields_trace").on(t.traceId, t.field),
  ],
);

/**
 * Leases: a field of a round handed to a reviewer. `state`: live (until `expires_at`), done (the
 * reviewer's blind review landed) or lapsed (expired unreviewed). Rows stay, so a field never goes
 * twice to one reviewer.
 */
export const roundClaims = sqliteTable(
  "round_claims",
  {
    roundId: integer("round_id")
      .notNull()
      .references(() => reviewRounds.id, { onDelete: "cascade" }),
    traceId: integer("trace_id").notNull(),
    field: text().notNull(),
    reviewer: text().notNull(),
    pos: integer().notNull(),
    expiresAt: text("expires_at").notNull(),
    state: text().notNull().default("live"),
  },
  (t) => [
    primaryKey({ columns: [t.roundId, t.traceId, t.field, t.reviewer] }),
    index("round_claims_reviewer").on(t.roundId, t.reviewer, t.pos),
    index("round_claims_live").on(t.roundId, t.state, t.expiresAt),
  ],
);

/**
 * Which probe version (and lexicon version: 0 until the lexicon exists) scored each probe's
 * traces in a run. A trigger on `traces` (0006_review_loop.sql) records every insert; a re-score
 * replaces a run's rows for the probes it re-scored.
 */
export const runScoring = sqliteTable(
  "run_scoring",
  {
    runId: integer("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    probeId: text("probe_id").notNull(),
    probeVersion: integer("probe_version").notNull(),
    lexiconVersion: integer("lexicon_version").notNull().default(0),
    createdAt: text("created_at").notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.runId, t.probeId, t.probeVersion, t.lexiconVersion] })],
);

/** A bulk relabel of a run page's filter, written in short resumable batches (db/queries/bulkReviews.ts). */
export const bulkReviews = sqliteTable(
  "bulk_reviews",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    runId: integer("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    /** The run page's filter (JSON, without paging). */
    filter: text().notNull(),
    field: text().notNull(),
    /** null: clear. */
    label: text(),
    reviewer: text().notNull(),
    note: text().notNull().default(""),
    /** The count the reviewer confirmed. */
    total: integer().notNull(),
    /** The newest review when the count was shown: a field reviewed since is skipped and listed. */
    seenReviewId: integer("seen_review_id").notNull(),
    /** The run's newest trace then: traces ingested later are not touched. */
    lastTraceId: integer("last_trace_id").notNull(),
    /** Every trace up to this id is done. */
    cursor: integer().notNull().default(0),
    written: integer().notNull().default(0),
    skipped: integer().notNull().default(0),
    /** running, done, failed, cancelled. */
    status: text().notNull().default("running"),
    error: text(),
    leaseOwner: text("lease_owner"),
    /** Epoch milliseconds until which the owner's runner holds the job. */
    leaseUntil: integer("lease_until"),
    createdAt: text("created_at").notNull().default(now),
    updatedAt: text("updated_at").notNull().default(now),
    finishedAt: text("finished_at"),
  },
  (t) => [index("bulk_reviews_run").on(t.runId, t.id)],
);

/** Fields a bulk relabel left alone because their review changed after the count was shown. */
export const bulkReviewSkips = sqliteTable(
  "bulk_review_skips",
  {
    jobId: integer("job_id")
      .notNull()
      .references(() => bulkReviews.id, { onDelete: "cascade" }),
    traceId: integer("trace_id").notNull(),
    field: text().notNull(),
    /** The review that landed after the count was shown. */
    reviewId: integer("review_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.traceId, t.field] })],
);

/**
 * A bulk add of a run page's filter to a fixture set, written in short resumable batches
 * (db/queries/fixturesBulk.ts), run in the background as a bulk relabel is (db/jobs/bulkAdd.ts).
 */
export const bulkFixtureAdds = sqliteTable(
  "bulk_fixture_adds",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    runId: integer("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    /** The run page's filter (JSON, without paging). */
    filter: text().notNull(),
    field: text().notNull(),
    /** The set's name (created when the job started, if it was missing). */
    setName: text("set_name").notNull(),
    /** Whether the job created the set. */
    created: integer({ mode: "boolean" }).notNull().default(false),
    reviewer: text().notNull(),
    /** The count the reviewer confirmed. */
    total: integer().notNull(),
    /** The newest review when the count was shown: a field reviewed since is skipped and listed. */
    seenReviewId: integer("seen_review_id").notNull(),
    /** The run's newest trace then: traces ingested later are not touched. */
    lastTraceId: integer("last_trace_id").notNull(),
    /** Every trace up to this id is done. */
    cursor: integer().notNull().default(0),
    /** What it adds: `corrections` (human label differs from ours), `confirmations` (the same) or `all`. */
    kind: text().notNull().default("all"),
    added: integer().notNull().default(0),
    relabelled: integer().notNull().default(0),
    unchanged: integer().notNull().default(0),
    /** Selected fields with no human label (skipped). */
    noLabel: integer("no_label").notNull().default(0),
    /** Fields reviewed after the count (skipped and listed). */
    changed: integer().notNull().default(0),
    /** Transactions that wrote fixtures. */
    batches: integer().notNull().default(0),
    /** running, done, failed, cancelled. */
    status: text().notNull().default("running"),
    error: text(),
    leaseOwner: text("lease_owner"),
    /** Epoch milliseconds until which the owner's runner holds the job. */
    leaseUntil: integer("lease_until"),
    createdAt: text("created_at").notNull().default(now),
    updatedAt: text("updated_at").notNull().default(now),
    finishedAt: text("finished_at"),
  },
  (t) => [index("bulk_fixture_adds_run").on(t.runId, t.id)],
);

/** Fields a bulk add left out because someone reviewed them after the count was shown. */
export const bulkFixtureAddChanges = sqliteTable(
  "bulk_fixture_add_changes",
  {
    jobId: integer("job_id")
      .notNull()
      .references(() => bulkFixtureAdds.id, { onDelete: "cascade" }),
    traceId: integer("trace_id").notNull(),
    field: text().notNull(),
    /** The review that landed after the count was shown. */
    reviewId: integer("review_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.traceId, t.field] })],
);

/** Named fixture sets; `seed` is built in and read-only (0008_fixtures.sql). */
export const fixtureSets = sqliteTable("fixture_sets", {
  id: integer().primaryKey({ autoIncrement: true }),
  name: text().notNull().unique(),
  description: text().notNull().default(""),
  builtin: integer({ mode: "boolean" }).notNull().default(false),
  createdAt: text("created_at").notNull().default(now),
  updatedAt: text("updated_at").notNull().default(now),
});

/** World snapshots {id, system, user, hidden, redacted, tool, tools, fields}, once each, by digest. */
export const fixtureWorlds = sqliteTable("fixture_worlds", {
  digest: text().primaryKey(),
  probeId: text("probe_id").notNull(),
  world: text().notNull(),
});

/**
 * A curated fixture: a world snapshot, the normalized response, the field and the expected
 * (human) label. `identity` (SHA-256 of the canonical JSON of world, response and field) is
 * unique within a set; `history` holds every expected label it had, the first when it was added.
 * Written only through db/queries/fixtures.ts. The expected label CHECK is in 0008_fixtures.sql.
 */
export const fixtures = sqliteTable(
  "fixtures",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    setId: integer("set_id")
      .notNull()
      .references(() => fixtureSets.id, { onDelete: "cascade" }),
    identity: text().notNull(),
    probeId: text("probe_id").notNull(),
    worldDigest: text("world_digest")
      .notNull()
      .references(() => fixtureWorlds.digest),
    response: text().notNull(),
    field: text().notNull(),
    expected: text().notNull(),
    reviewer: text().notNull(),
    note: text().notNull().default(""),
    /** The source trace's reference as it was when the fixture was added (JSON), kept after the trace goes. */
    source: text(),
    sourceTraceId: integer("source_trace_id").references(() => traces.id, { onDelete: "set null" }),
    /** [{expected, reviewer, note, at}], oldest first. */
    history: text().notNull(),
    /** How the expected label was settled: 'single' (one review), 'agreed' or 'adjudicated' (a blind round). */
    settled: text().notNull().default("single"),
    createdAt: text("created_at").notNull().default(now),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [
    uniqueIndex("fixtures_identity").on(t.setId, t.identity),
    index("fixtures_set").on(t.setId, t.id),
    index("fixtures_source").on(t.sourceTraceId),
    index("fixtures_world").on(t.worldDigest),
  ],
);

/** A re-run of a set, with the scorer version it ran under and its counts. */
export const fixtureRuns = sqliteTable(
  "fixture_runs",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    setId: integer("set_id")
      .notNull()
      .references(() => fixtureSets.id, { onDelete: "cascade" }),
    /** lib/fixtures/configuration.ts scorerVersion: package, each probe's configuration version, lexicon. */
    scorerVersion: text("scorer_version").notNull(),
    /** The same parts as JSON {package, probes: {id: version}, lexicon}. */
    versions: text().notNull(),
    /** A what-if configuration, when the re-run used one. */
    config: text(),
    /** cli, browser or demo. */
    origin: text().notNull(),
    total: integer().notNull(),
    passed: integer().notNull(),
    failed: integer().notNull(),
    broke: integer().notNull(),
    fixed: integer().notNull(),
    added: integer().notNull(),
    createdAt: text("created_at").notNull().default(now),
  },
  (t) => [index("fixture_runs_set").on(t.setId, t.id)],
);

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
    /** The fixture's expected label at the time of the re-run. */
    expected: text().notNull(),
    passed: integer({ mode: "boolean" }).notNull(),
    /** broke, fixed, new, or null (same outcome as the previous re-run). */
    change: text(),
    /** For a failure: the rule that fired and the ask terms it looked for. */
    why: text(),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.fixtureId] }),
    index("fixture_results_fixture").on(t.fixtureId, t.runId),
  ],
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
    /** Who asked for it (a re-score started from the dashboard or the command line). */
    requestedBy: text("requested_by"),
    /** The runner holding it (db/jobs/lease.ts: host:pid:random) and until when (epoch ms). */
    leaseOwner: text("lease_owner"),
    leaseUntil: integer("lease_until"),
    createdAt: text("created_at").notNull().default(now),
    finishedAt: text("finished_at"),
  },
  (t) => [index("rescores_run").on(t.runId, t.id), index("rescores_status").on(t.status, t.id)],
);

/**
 * Saved versions of the shared lexicon (version 0, the empty lexicon, has no row). Entries are in
 * `lexicon_entries(version, field, terms, rule)`, WITHOUT ROWID with a CHECK on the rule, which
 * drizzle cannot express: 0009_lexicon.sql holds it; db/queries/lexicon.ts reads and writes both.
 */
export const lexiconVersions = sqliteTable("lexicon_versions", {
  version: integer().primaryKey(),
  savedBy: text("saved_by").notNull(),
  /** edit (page or command line), import:<file>, suggest. */
  origin: text().notNull().default("edit"),
  note: text().notNull().default(""),
  createdAt: text("created_at").notNull().default(now),
});

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

/**
 * Agreement between reviewers, kept as counts so `/agreement` and `assumeprobe agreement` cost the
 * same at a million fields as at ten (db/queries/interRater.ts). A blind unit is one field of one
 * trace with its reviewers' first blind reviews (a clear counts for nobody): `pattern` is the JSON
 * array of `[reviewer, label]`, sorted by reviewer, `size` its length, `round_id` the round of its
 * first blind review (0: none). Triggers (0018_agreement_index.sql) keep both tables: a blind
 * review written or deleted makes its unit again, and a unit of two labels or more adds one to its
 * pattern's count while it stands. The run and probe are copied from the trace when the unit is made.
 */
export const blindUnits = sqliteTable(
  "blind_units",
  {
    traceId: integer("trace_id")
      .notNull()
      .references(() => traces.id, { onDelete: "cascade" }),
    field: text().notNull(),
    runId: integer("run_id").notNull(),
    probeId: text("probe_id").notNull(),
    roundId: integer("round_id").notNull().default(0),
    pattern: text().notNull(),
    size: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.traceId, t.field] })],
);

/** How many blind units (two labels or more) have each pattern, per run, probe, field and round. */
export const blindPatternCounts = sqliteTable(
  "blind_pattern_counts",
  {
    runId: integer("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    probeId: text("probe_id").notNull(),
    field: text().notNull(),
    roundId: integer("round_id").notNull(),
    pattern: text().notNull(),
    n: integer().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.probeId, t.field, t.roundId, t.pattern] }),
    index("blind_pattern_counts_round").on(t.roundId),
  ],
);
