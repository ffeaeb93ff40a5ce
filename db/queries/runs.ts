import { GATE_LOG_PROBE, type RunKind } from "../../lib/ingest/gateLogForm";
import { ANY_FIELD, parseTag } from "../../lib/ingest/tags";
import { LABELS, type Label } from "../../lib/probe/schema";
import type { Db } from "../client";
import { write } from "../write";
import { agentStepCounts } from "./agentTurns";

export interface FieldCounts {
  field: string;
  /** Traces with a label for this field: the sample size behind every rate. */
  n: number;
  labels: Record<Label, number>;
  reasons: Record<string, number>;
  /** Fields whose current human label (review, else imported) agrees with ours or not. */
  human: { agree: number; disagree: number };
  recorded: { agree: number; disagree: number };
  /** Fields with a current review, and how many of those correct ours or confirm it. */
  reviews: { reviewed: number; corrects: number; confirms: number };
}

export interface RunCounts {
  probes: { id: string; n: number }[];
  fields: FieldCounts[];
  flags: Record<string, number>;
  fieldFlags: Record<string, number>;
  gate: Record<string, number>;
  /** Gate-log runs: decisions per tool, and how often each fact blocked as unknown or conflicting. */
  tools: Record<string, number>;
  gateUnknown: Record<string, number>;
  gateConflict: Record<string, number>;
}

export interface RunRow {
  id: number;
  name: string;
  model: string | null;
  params: string | null;
  /** What it holds: probe traces, or a gate decision log's decisions. */
  kind: RunKind;
  traceCount: number;
  rejectedCount: number;
  mismatchCount: number;
  createdAt: string;
  updatedAt: string;
  firstStartedAt: string | null;
  lastStartedAt: string | null;
}

export interface RunSummary extends RunRow, RunCounts {
  /** When the run happened: its first trace's start, else when it was ingested. */
  date: string;
}

const RUN_COLUMNS = `id, name, model, params, kind, trace_count AS traceCount, rejected_count AS rejectedCount,
  mismatch_count AS mismatchCount, created_at AS createdAt, updated_at AS updatedAt,
  first_started_at AS firstStartedAt, last_started_at AS lastStartedAt`;

function emptyField(field: string): FieldCounts {
  return {
    field,
    n: 0,
    labels: Object.fromEntries(LABELS.map((l) => [l, 0])) as Record<Label, number>,
    reasons: {},
    human: { agree: 0, disagree: 0 },
    recorded: { agree: 0, disagree: 0 },
    reviews: { reviewed: 0, corrects: 0, confirms: 0 },
  };
}

/** Folds (tag name, count) pairs into per-field counts; optional probe restriction. */
export function foldCounts(rows: { probe: string; tag: string; n: number }[]): RunCounts {
  const fields = new Map<string, FieldCounts>();
  const probes = new Map<string, number>();
  const out: RunCounts = {
    probes: [],
    fields: [],
    flags: {},
    fieldFlags: {},
    gate: {},
    tools: {},
    gateUnknown: {},
    gateConflict: {},
  };
  const add = (into: Record<string, number>, key: string, n: number) => {
    into[key] = (into[key] ?? 0) + n;
  };
  const field = (f: string) => {
    let c = fields.get(f);
    if (!c) {
      c = emptyField(f);
      fields.set(f, c);
    }
    return c;
  };
  for (const r of rows) {
    const t = parseTag(r.tag);
    if (!t || t.field === ANY_FIELD) continue;
    switch (t.kind) {
      case "probe":
        probes.set(t.value, (probes.get(t.value) ?? 0) + r.n);
        break;
      case "label": {
        const c = field(t.field as string);
        c.labels[t.value as Label] = (c.labels[t.value as Label] ?? 0) + r.n;
        c.n += r.n;
        break;
      }
      case "reason": {
        const c = field(t.field as string);
        c.reasons[t.value] = (c.reasons[t.value] ?? 0) + r.n;
        break;
      }
      case "human":
        field(t.field as string).human[t.value as "agree" | "disagree"] += r.n;
        break;
      case "recorded":
        field(t.field as string).recorded[t.value as "agree" | "disagree"] += r.n;
        break;
      case "review": {
        const c = field(t.field as string).reviews;
        if (t.value === "reviewed" || t.value === "corrects" || t.value === "confirms") c[t.value] += r.n;
        break;
      }
      case "flag":
        out.flags[t.value] = (out.flags[t.value] ?? 0) + r.n;
        break;
      case "fieldFlag":
        out.fieldFlags[t.value] = (out.fieldFlags[t.value] ?? 0) + r.n;
        break;
      case "gate":
        out.gate[t.value] = (out.gate[t.value] ?? 0) + r.n;
        break;
      case "tool":
        add(out.tools, t.value, r.n);
        break;
      case "gateUnknown":
        add(out.gateUnknown, t.value, r.n);
        break;
      case "gateConflict":
        add(out.gateConflict, t.value, r.n);
        break;
      default:
        break;
    }
  }
  out.probes = [...probes]
    .map(([id, n]) => ({ id, n }))
    .sort((a, b) => b.n - a.n || a.id.localeCompare(b.id));
  // timezone leads (a bare recorded label means timezone), then the most-sampled fields.
  out.fields = [...fields.values()].sort(
    (a, b) =>
      Number(b.field === "timezone") - Number(a.field === "timezone") ||
      b.n - a.n ||
      a.field.localeCompare(b.field),
  );
  return out;
}

function countRows(db: Db, runIds: number[], probe?: string) {
  if (runIds.length === 0) return new Map<number, { probe: string; tag: string; n: number }[]>();
  const rows = db.sqlite
    .prepare(
      `SELECT rc.run_id AS runId, rc.probe_id AS probe, tn.name AS tag, rc.n AS n
       FROM run_counts rc JOIN tag_names tn ON tn.id = rc.tag_id
       WHERE rc.run_id IN (SELECT value FROM json_each(?))${probe ? " AND rc.probe_id = ?" : ""}`,
    )
    .all(...(probe ? [JSON.stringify(runIds), probe] : [JSON.stringify(runIds)])) as {
    runId: number;
    probe: string;
    tag: string;
    n: number;
  }[];
  // Agent steps stay out of the counts and rates (lib/ingest/agentTurns.ts); their flag's count stays.
  for (const r of agentStepCounts(db, runIds, probe)) rows.push({ ...r, n: -r.n });
  const byRun = new Map<number, { probe: string; tag: string; n: number }[]>();
  for (const r of rows) {
    const list = byRun.get(r.runId);
    if (list) list.push(r);
    else byRun.set(r.runId, [r]);
  }
  return byRun;
}

export interface RunFilter {
  model?: string;
  probe?: string;
}

/** Every run (newest first) with its counts; read from the kept counts, never by scanning traces. */
export function listRunSummaries(db: Db, filter: RunFilter = {}): RunSummary[] {
  const where: string[] = [];
  const args: unknown[] = [];
  if (filter.model) {
    where.push("model = ?");
    args.push(filter.model);
  }
  if (filter.probe) {
    where.push("id IN (SELECT DISTINCT run_id FROM run_counts WHERE probe_id = ?)");
    args.push(filter.probe);
  }
  const runs = db.sqlite
    .prepare(
      `SELECT ${RUN_COLUMNS} FROM runs ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
       ORDER BY coalesce(first_started_at, created_at) DESC, id DESC`,
    )
    .all(...args) as RunRow[];
  const counts = countRows(
    db,
    runs.map((r) => r.id),
  );
  return runs.map((r) => ({
    ...r,
    date: r.firstStartedAt ?? r.createdAt,
    ...foldCounts(counts.get(r.id) ?? []),
  }));
}

/** The newest runs (by when they were last written), at most `limit`, and how many there are in all. */
export function recentRuns(db: Db, limit: number): { runs: RunRow[]; total: number } {
  const runs = db.sqlite
    .prepare(`SELECT ${RUN_COLUMNS} FROM runs ORDER BY updated_at DESC, id DESC LIMIT ?`)
    .all(limit) as RunRow[];
  const total = db.sqlite.prepare("SELECT count(*) FROM runs").pluck().get() as number;
  return { runs, total };
}

export function getRunByName(db: Db, name: string): RunRow | undefined {
  return db.sqlite.prepare(`SELECT ${RUN_COLUMNS} FROM runs WHERE name = ?`).get(name) as RunRow | undefined;
}

export function getRunSummary(db: Db, name: string, probe?: string): RunSummary | undefined {
  const r = getRunByName(db, name);
  if (!r) return undefined;
  return {
    ...r,
    date: r.firstStartedAt ?? r.createdAt,
    ...foldCounts(countRows(db, [r.id], probe).get(r.id) ?? []),
  };
}

/** Models and probes that have runs, for the overview's filters. */
export function runFacets(db: Db): { models: string[]; probes: string[] } {
  const models = db.sqlite
    .prepare("SELECT DISTINCT model FROM runs WHERE model IS NOT NULL ORDER BY model")
    .pluck()
    .all() as string[];
  const probes = db.sqlite
    .prepare("SELECT DISTINCT probe_id FROM run_counts WHERE probe_id <> ? ORDER BY probe_id")
    .pluck()
    .all(GATE_LOG_PROBE) as string[];
  return { models, probes };
}

/**
 * Deletes a run and everything that belongs only to it, in one transaction. Asynchronous: the
 * dashboard's request thread waits for the write lock (an ingest may hold it) without blocking.
 */
export async function deleteRun(db: Db, runId: number): Promise<void> {
  await write(db, () => {
    db.sqlite
      .prepare("DELETE FROM trace_search WHERE rowid IN (SELECT id FROM traces WHERE run_id = ?)")
      .run(runId);
    db.sqlite.prepare("DELETE FROM trace_tags WHERE run_id = ?").run(runId);
    db.sqlite.prepare("DELETE FROM traces WHERE run_id = ?").run(runId);
    db.sqlite.prepare("DELETE FROM original_blocks WHERE run_id = ?").run(runId);
    db.sqlite.prepare("DELETE FROM runs WHERE id = ?").run(runId);
  });
}
