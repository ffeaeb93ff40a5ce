/**
 * The write floor of ingest (bench/ingest.ts): what the database writes of our schema cost for
 * the same records, with reading, parsing, scoring and preparing left out of the clock.
 *
 * 1. The file goes through our own pipeline and store on one thread (as
 *    `ASSUMEPROBE_INGEST_THREAD=0`), and only the store's `write` calls are timed: one transaction
 *    per batch with the trace rows and their two indexes, the tag rows, the search rows and the
 *    run counts. No ingest of this schema can be faster than this figure on this machine.
 * 2. The first SAMPLE prepared records are then replayed table by table into fresh databases of
 *    the same schema, to show where that time goes: the trace row (its original line, stored score
 *    and identity index), the tag rows the run page filters by, and the full-text search row.
 */
import { createReadStream, rmSync } from "node:fs";
import { basename } from "node:path";
import { openDb } from "../../db/client";
import { createIngestStore, insertTraceSql, traceRow } from "../../db/queries/ingestStore";
import { syncBuiltinProbes } from "../../db/queries/probes";
import { type IngestStore, ingestSources } from "../../lib/ingest/pipeline";
import type { PreparedTrace } from "../../lib/ingest/prepare";

const SAMPLE = 50_000;
/** Rows per transaction in the replays, as the pipeline's default batch. */
const REPLAY_BATCH = 2000;

export interface WriteFloor {
  records: number;
  /** Wall seconds inside the store's write calls. */
  writeSeconds: number;
  /** Wall seconds of the whole single-threaded ingest. */
  totalSeconds: number;
  /** Microseconds per record of each table's replay, on the first `sampled` records. */
  parts: { name: string; usPerRecord: number }[];
  sampled: number;
}

function freshDb(path: string) {
  for (const suffix of ["", "-wal", "-shm"]) rmSync(path + suffix, { force: true });
  return openDb(path);
}

/** Times `fn` over the sample in transactions of REPLAY_BATCH rows: microseconds per record. */
function replay(
  path: string,
  sample: PreparedTrace[],
  prepare: (db: ReturnType<typeof openDb>) => (t: PreparedTrace, id: number) => void,
): number {
  const db = freshDb(path);
  db.sqlite.prepare("INSERT INTO runs(name) VALUES ('floor')").run();
  const one = prepare(db);
  const started = performance.now();
  for (let i = 0; i < sample.length; i += REPLAY_BATCH) {
    db.sqlite.transaction(() => {
      for (let j = i; j < Math.min(i + REPLAY_BATCH, sample.length); j++) one(sample[j], j + 1);
    })();
  }
  const us = ((performance.now() - started) * 1000) / sample.length;
  db.sqlite.close();
  return us;
}

export async function measureWriteFloor(file: string, dbPath: string): Promise<WriteFloor> {
  const db = freshDb(dbPath);
  syncBuiltinProbes(db);
  const inner = createIngestStore(db);
  const sample: PreparedTrace[] = [];
  let writeMs = 0;
  const store: IngestStore = {
    ...inner,
    write(batchId, traces, errors) {
      const t0 = performance.now();
      const out = inner.write(batchId, traces, errors);
      writeMs += performance.now() - t0;
      for (const t of traces) if (sample.length < SAMPLE) sample.push(t);
      return out;
    },
  };
  const started = performance.now();
  const summary = await ingestSources(
    [{ file, name: basename(file), stream: createReadStream(file) }],
    { probe: "schedule_window", format: "trace", origin: "bench" },
    store,
  );
  const totalSeconds = (performance.now() - started) / 1000;
  db.sqlite.close();
  if (summary.rejected > 0 || summary.unreadable)
    throw new Error(
      `write floor: ${summary.rejected} records rejected, unreadable ${JSON.stringify(summary.unreadable)}`,
    );

  const scratch = `${dbPath}.replay`;
  const traceRowUs = replay(scratch, sample, (d) => {
    const st = d.sqlite.prepare(insertTraceSql("INSERT"));
    return (t) => st.run(traceRow(1, null, t, null));
  });
  const tagIds = new Map<string, number>();
  const tagRows = replay(scratch, sample, (d) => {
    const st = d.sqlite.prepare("INSERT INTO trace_tags(run_id, tag_id, trace_id, sig) VALUES (1, ?, ?, ?)");
    return (t, id) => {
      for (const name of t.tags) {
        let tag = tagIds.get(name);
        if (tag === undefined) {
          tag = tagIds.size + 1;
          tagIds.set(name, tag);
        }
        st.run(tag, id, t.sig);
      }
    };
  });
  const searchRow = replay(scratch, sample, (d) => {
    const st = d.sqlite.prepare("INSERT INTO trace_search(rowid, body) VALUES (?, ?)");
    return (t, id) => {
      if (t.search) st.run(id, t.search);
    };
  });
  for (const suffix of ["", "-wal", "-shm"]) rmSync(scratch + suffix, { force: true });
  const tagsPer = sample.reduce((n, t) => n + t.tags.length, 0) / Math.max(1, sample.length);
  return {
    records: summary.records,
    writeSeconds: writeMs / 1000,
    totalSeconds,
    sampled: sample.length,
    parts: [
      { name: "trace row (original line, score, identity and run indexes)", usPerRecord: traceRowUs },
      { name: `tag rows (${tagsPer.toFixed(1)} per trace, the run page's filters)`, usPerRecord: tagRows },
      { name: "search row (FTS5 over response text and argument values)", usPerRecord: searchRow },
    ],
  };
}
