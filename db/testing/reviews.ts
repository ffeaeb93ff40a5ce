/**
 * Test helpers for the review loop: a small run whose traces cover every label, imported and
 * recorded labels, and a brute-force recount of what the review write path keeps in step.
 */
import { tagSignature } from "../../lib/ingest/tagSignature";
import { traceTags } from "../../lib/ingest/tags";
import type { TraceScore } from "../../lib/probe/score";
import { DISPUTED } from "../../lib/review/humanLabel";
import { fieldRound, type KindedReview } from "../../lib/review/rounds";
import type { Db } from "../client";
import { TRACE_ROW_SELECT, type TraceRow } from "../queries/reviews";
import { inconsistencies, ingestText, traceLine } from "./ingest";

const text = (t: string) => ({ response: { text: t, tool_calls: [] } });

/** Twelve schedule_window traces: ASK, DRIFT, OMIT, COPY-ish, INJECT, some with imported or recorded labels. */
export function reviewRunLines(): string[] {
  return [
    traceLine({ id: "ask", ...text("Which timezone should I use?") }),
    traceLine({ id: "drift-q", ...text("Which region is u_9182 in? I need that to place 09:00 correctly.") }),
    traceLine({ id: "drift", ...text("Done.") }),
    traceLine({ id: "omit" }),
    traceLine({ id: "utc" }, { timezone: "UTC" }),
    traceLine({ id: "tokyo", human: { timezone: "inject", severity: "OMIT" } }, { timezone: "Asia/Tokyo" }),
    traceLine({ id: "h-ask", human: { timezone: "ASK" }, ...text("Where is the user located?") }),
    traceLine({ id: "rec", label: "ASK" }, { timezone: "UTC", severity: "P3" }),
    traceLine({ id: "copy" }, { timezone: "acme-west" }),
    traceLine({ id: "both", human: { severity: "DRIFT" }, ...text("Please confirm the severity.") }),
    traceLine({ id: "x1" }, { timezone: "Europe/Paris" }),
    traceLine({ id: "x2", human: { timezone: "OMIT" } }),
  ];
}

export async function loadReviewRun(db: Db, run = "reviews"): Promise<Map<string, number>> {
  await ingestText(db, `${run}.jsonl`, `${reviewRunLines().join("\n")}\n`, { run });
  const rows = db.sqlite
    .prepare(
      "SELECT t.ext_id AS ext, t.id AS id FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name = ?",
    )
    .all(run) as { ext: string; id: number }[];
  return new Map(rows.map((r) => [r.ext, r.id]));
}

/** Every trace as the review write path reads one (db/queries/reviews.ts), in id order. */
export function everyTraceRow(db: Db): TraceRow[] {
  return db.sqlite.prepare(`${TRACE_ROW_SELECT} ORDER BY id`).all() as TraceRow[];
}

/**
 * What the write path must keep true, recounted the slow way: every trace's tag rows are exactly
 * the tags of its stored score with its current reviews (newest per field, or as blind rounds
 * decide: lib/review/rounds.ts; read by a full scan),
 * each row carries the signature of that set (or -1 when `unsigned` lists the trace), and the
 * run counts equal a recount of the rows. Returns the differences (empty when consistent).
 */
export function reviewInconsistencies(db: Db, unsigned: ReadonlySet<number> = new Set()): string[] {
  const out = inconsistencies(db.sqlite);
  const traces = everyTraceRow(db);
  const all = db.sqlite
    .prepare("SELECT id, trace_id, field, label, kind, reviewer FROM reviews ORDER BY id")
    .all() as (KindedReview & { trace_id: number; field: string })[];
  const perField = new Map<string, KindedReview[]>();
  for (const r of all) {
    const key = `${r.trace_id}\u0000${r.field}`;
    perField.set(key, [...(perField.get(key) ?? []), r]);
  }
  const current = new Map<number, Record<string, string | null>>();
  for (const [key, list] of perField) {
    const [traceId, field] = key.split("\u0000");
    const m = current.get(Number(traceId)) ?? {};
    const { current: cur } = fieldRound(list);
    m[field] = cur ? cur.label : DISPUTED;
    current.set(Number(traceId), m);
  }
  const rows = db.sqlite.prepare(
    "SELECT n.name AS name, x.sig AS sig FROM trace_tags x JOIN tag_names n ON n.id = x.tag_id WHERE x.run_id = ? AND x.trace_id = ?",
  );
  for (const t of traces) {
    const want = traceTags(
      t.probeId,
      JSON.parse(t.result) as TraceScore,
      t.human ? JSON.parse(t.human) : undefined,
      t.recorded ? JSON.parse(t.recorded) : undefined,
      current.get(t.id),
      t.text,
    );
    const have = rows.all(t.runId, t.id) as { name: string; sig: number }[];
    const wantSet = new Set(want);
    const haveSet = new Set(have.map((r) => r.name));
    for (const n of wantSet) if (!haveSet.has(n)) out.push(`trace ${t.id}: missing tag ${n}`);
    for (const n of haveSet) if (!wantSet.has(n)) out.push(`trace ${t.id}: stray tag ${n}`);
    const sig = unsigned.has(t.id) ? -1 : tagSignature(want);
    for (const r of have)
      if (r.sig !== sig) out.push(`trace ${t.id}: tag ${r.name} sig ${r.sig}, want ${sig}`);
  }
  return out;
}
