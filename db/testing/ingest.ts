import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import type Database from "better-sqlite3";
import { type IngestOptions, type IngestSummary, ingestSources } from "../../lib/ingest/pipeline";
import { openSource, sourceName } from "../../lib/ingest/readSource";
import { type Db, openDb } from "../client";
import { createIngestStore } from "../queries/ingestStore";
import { syncBuiltinProbes } from "../queries/probes";

/** A fresh database file under the system temp folder, migrated, with the built-in probes. */
export function tempDb(prefix: string): { db: Db; dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `assumeprobe-${prefix}-`));
  const db = openDb(join(dir, "test.db"));
  syncBuiltinProbes(db);
  return {
    db,
    dir,
    cleanup: () => {
      db.sqlite.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Ingests one in-memory file (named like a path, for its source name) through the real store. */
export async function ingestText(
  db: Db,
  file: string,
  content: string | Buffer,
  opts: Partial<IngestOptions> = {},
): Promise<IngestSummary> {
  const bytes = typeof content === "string" ? Buffer.from(content) : content;
  return ingestSources(
    [{ file, name: sourceName(file), stream: Readable.from([bytes]) }],
    { probe: "schedule_window", format: "trace", origin: "test", ...opts },
    createIngestStore(db),
  );
}

/** Ingests files from disk (or `-` for the given stand-in for standard input), as the CLI opens them. */
export async function ingestPaths(
  db: Db,
  paths: string[],
  opts: Partial<IngestOptions> = {},
  stdin?: Readable,
): Promise<IngestSummary> {
  return ingestSources(
    paths.map((f) => ({ file: f, name: sourceName(f), stream: openSource(f, stdin) })),
    { probe: "schedule_window", format: "trace", origin: "test", ...opts },
    createIngestStore(db),
  );
}

export const ARGS = { user_id: "u_9182", starts_at: "2026-09-08T09:00:00" };

/** A trace-format record calling schedule_window with these extra arguments, as one JSONL line. */
export function traceLine(extra: Record<string, unknown> = {}, args: Record<string, unknown> = {}): string {
  return JSON.stringify({
    schema: "assumeprobe/trace@1",
    probe: "schedule_window",
    response: { text: null, tool_calls: [{ name: "schedule_window", arguments: { ...ARGS, ...args } }] },
    ...extra,
  });
}

/**
 * What must hold after any ingest, even a killed one: per-run tag counts equal a recount from
 * trace_tags, trace_count equals the traces stored, rejected_count equals the errors stored.
 * Returns the differences (empty when consistent).
 */
export function inconsistencies(sqlite: Database.Database): string[] {
  const out: string[] = [];
  const recount = sqlite
    .prepare(
      `SELECT tt.run_id || '/' || t.probe_id || '/' || tt.tag_id AS k, count(*) AS n
       FROM trace_tags tt JOIN traces t ON t.id = tt.trace_id GROUP BY tt.run_id, t.probe_id, tt.tag_id`,
    )
    .all() as { k: string; n: number }[];
  const stored = sqlite
    .prepare("SELECT run_id || '/' || probe_id || '/' || tag_id AS k, n FROM run_counts WHERE n <> 0")
    .all() as { k: string; n: number }[];
  const want = new Map(recount.map((r) => [r.k, r.n]));
  const have = new Map(stored.map((r) => [r.k, r.n]));
  for (const k of new Set([...want.keys(), ...have.keys()])) {
    if (want.get(k) !== have.get(k))
      out.push(`run_counts ${k}: stored ${have.get(k)}, recount ${want.get(k)}`);
  }
  const runs = sqlite
    .prepare(
      `SELECT name, trace_count AS tc, rejected_count AS rc,
         (SELECT count(*) FROM traces t WHERE t.run_id = r.id) AS traces,
         (SELECT count(*) FROM ingest_errors e WHERE e.run_id = r.id) AS errors
       FROM runs r`,
    )
    .all() as { name: string; tc: number; rc: number; traces: number; errors: number }[];
  for (const r of runs) {
    if (r.tc !== r.traces) out.push(`run ${r.name}: trace_count ${r.tc}, traces ${r.traces}`);
    if (r.rc !== r.errors) out.push(`run ${r.name}: rejected_count ${r.rc}, errors ${r.errors}`);
  }
  return out;
}
