import { UserError } from "../../lib/errors";
/**
 * The human-labelled fields a suggestion learns from (DESIGN.md, "Suggestions"): traces' current
 * human labels (the current review, else the imported label) and fixtures' expected labels, only
 * inside the scope asked for. With `--run`, only those runs' traces; with `--set`, only those
 * sets' fixtures; with both, both; with neither, every run and every set. `--probe` narrows any
 * of them to one probe.
 *
 * A trace's human labels are read from its `hl:field=LABEL` tags (kept current by every review),
 * one index range per run and tag, so a run of a million traces with a hundred thousand labels
 * is read without touching the rest. A fixture whose source trace is in scope for the same field
 * is counted once, as the trace (its current human label); the same case in two sets once.
 */
import { parseTag, tag } from "../../lib/ingest/tags";
import type { NormalizedResponse } from "../../lib/probe/response";
import { LABELS, type Label } from "../../lib/probe/schema";
import type { HumanSource } from "../../lib/tuning/types";
import type { Db } from "../client";

export interface SuggestScope {
  runs: string[];
  sets: string[];
  probe?: string;
}

export interface SuggestInput {
  /** `trace:ID:field` or `fixture:ID`. */
  key: string;
  probeId: string;
  field: string;
  response: NormalizedResponse;
  human: Label;
  source: HumanSource;
  trace?: { id: number; run: string; probeVersion: number; lexiconVersion: number };
  fixture?: { id: number; set: string; identity: string; worldDigest: string };
}

export class ScopeError extends UserError<"scope"> {
  constructor(message: string) {
    super("scope", message);
  }
}

const LABEL_SET = new Set<string>(LABELS);

/** Checks the scope's names: an unknown run or set is an error naming it. */
export function checkScope(db: Db, scope: SuggestScope): void {
  const runStmt = db.sqlite.prepare("SELECT 1 FROM runs WHERE name = ?").pluck();
  for (const r of scope.runs) if (runStmt.get(r) === undefined) throw new ScopeError(`unknown run: ${r}`);
  const setStmt = db.sqlite.prepare("SELECT 1 FROM fixture_sets WHERE name = ?").pluck();
  for (const s of scope.sets)
    if (setStmt.get(s) === undefined) throw new ScopeError(`unknown fixture set: ${s}`);
}

/** Every human-labelled field in the scope, traces first (by id), then fixtures (by id). */
export function suggestInputs(db: Db, scope: SuggestScope): SuggestInput[] {
  checkScope(db, scope);
  const all = scope.runs.length === 0 && scope.sets.length === 0;
  const runs = all
    ? (db.sqlite.prepare("SELECT id, name FROM runs ORDER BY id").all() as { id: number; name: string }[])
    : (scope.runs.map((name) => db.sqlite.prepare("SELECT id, name FROM runs WHERE name = ?").get(name)) as {
        id: number;
        name: string;
      }[]);
  const sets = all
    ? (db.sqlite.prepare("SELECT id, name FROM fixture_sets ORDER BY id").all() as {
        id: number;
        name: string;
      }[])
    : (scope.sets.map((name) =>
        db.sqlite.prepare("SELECT id, name FROM fixture_sets WHERE name = ?").get(name),
      ) as { id: number; name: string }[]);

  const out: SuggestInput[] = [];
  const seenTraceFields = new Set<string>();
  const humanTags = db.sqlite
    .prepare("SELECT id, name FROM tag_names WHERE name >= 'hl:' AND name < 'hl;'")
    .all() as { id: number; name: string }[];
  const tagField = new Map<number, { field: string; label: Label }>();
  for (const t of humanTags) {
    const p = parseTag(t.name);
    if (!p || p.field === null || p.field === "*" || !LABEL_SET.has(p.value)) continue;
    tagField.set(t.id, { field: p.field, label: p.value as Label });
  }
  // Fields whose human label is a review (`rv:field=reviewed`), by tag id: read per run in one range each.
  const reviewedTags = new Map<number, string>();
  for (const r of db.sqlite
    .prepare("SELECT id, name FROM tag_names WHERE name >= 'rv:' AND name < 'rv;'")
    .all() as { id: number; name: string }[]) {
    const p = parseTag(r.name);
    if (p && p.field !== null && p.field !== "*" && r.name === tag.review(p.field, "reviewed"))
      reviewedTags.set(r.id, p.field);
  }
  const reviewedStmt = db.sqlite.prepare(
    "SELECT trace_id AS id, tag_id AS tag FROM trace_tags WHERE run_id = ? AND tag_id IN (SELECT value FROM json_each(?))",
  );
  const reviewedIds = JSON.stringify([...reviewedTags.keys()]);
  const probeCond = scope.probe !== undefined ? "AND t.probe_id = ?" : "";
  const traceStmt = db.sqlite.prepare(
    `SELECT tt.trace_id AS id, tt.tag_id AS tag, t.probe_id AS probe, t.probe_version AS version, t.lexicon_version AS lexicon, t.response AS response
     FROM trace_tags tt JOIN traces t ON t.id = tt.trace_id
     WHERE tt.run_id = ? AND tt.tag_id IN (SELECT value FROM json_each(?)) ${probeCond}
     ORDER BY tt.trace_id`,
  );
  const tagIds = JSON.stringify([...tagField.keys()]);
  for (const run of runs) {
    const args: unknown[] = [run.id, tagIds];
    if (scope.probe !== undefined) args.push(scope.probe);
    const rows = traceStmt.all(...args) as {
      id: number;
      tag: number;
      probe: string;
      version: number;
      lexicon: number;
      response: string;
    }[];
    const reviewed = new Set<string>();
    for (const x of reviewedStmt.all(run.id, reviewedIds) as { id: number; tag: number }[])
      reviewed.add(`${x.id}:${reviewedTags.get(x.tag)}`);
    let lastId = -1;
    let response: NormalizedResponse | null = null;
    for (const r of rows) {
      const t = tagField.get(r.tag);
      if (!t) continue;
      if (r.id !== lastId) {
        response = JSON.parse(r.response) as NormalizedResponse;
        lastId = r.id;
      }
      const source: HumanSource = reviewed.has(`${r.id}:${t.field}`) ? "review" : "imported";
      seenTraceFields.add(`${r.id}:${t.field}`);
      out.push({
        key: `trace:${r.id}:${t.field}`,
        probeId: r.probe,
        field: t.field,
        response: response as NormalizedResponse,
        human: t.label,
        source,
        trace: { id: r.id, run: run.name, probeVersion: r.version, lexiconVersion: r.lexicon },
      });
    }
  }

  const fixtureStmt = db.sqlite.prepare(
    `SELECT f.id, f.identity, f.probe_id AS probe, f.world_digest AS world, f.response, f.field, f.expected,
            f.source_trace_id AS sourceTrace
     FROM fixtures f WHERE f.set_id = ? ${scope.probe !== undefined ? "AND f.probe_id = ?" : ""} ORDER BY f.id`,
  );
  const seenIdentities = new Set<string>();
  for (const set of sets) {
    const args: unknown[] = [set.id];
    if (scope.probe !== undefined) args.push(scope.probe);
    const rows = fixtureStmt.all(...args) as {
      id: number;
      identity: string;
      probe: string;
      world: string;
      response: string;
      field: string;
      expected: string;
      sourceTrace: number | null;
    }[];
    for (const f of rows) {
      if (!LABEL_SET.has(f.expected)) continue;
      if (seenIdentities.has(f.identity)) continue;
      if (f.sourceTrace !== null && seenTraceFields.has(`${f.sourceTrace}:${f.field}`)) continue;
      seenIdentities.add(f.identity);
      out.push({
        key: `fixture:${f.id}`,
        probeId: f.probe,
        field: f.field,
        response: JSON.parse(f.response) as NormalizedResponse,
        human: f.expected as Label,
        source: "fixture",
        fixture: { id: f.id, set: set.name, identity: f.identity, worldDigest: f.world },
      });
    }
  }
  return out;
}
