/**
 * Test helpers for the review queue: runs whose traces meet every rule the built-in probe can
 * raise, and the queue worked out the slow way (every trace read, every review replayed) to
 * check the kept tags and counts against.
 */
import fc from "fast-check";
import { expect } from "vitest";
import { LABELS, type Label } from "../../lib/probe/schema";
import type { TraceScore } from "../../lib/probe/score";
import { variant } from "../../lib/probe/testProbes";
import {
  type QueueInput,
  type QueueRule,
  type QueueSlot,
  queueRulesOf,
  queueSlot,
  SLOT_RANK,
  slotRule,
} from "../../lib/review/queueRules";
import type { Db } from "../client";
import { saveProbe } from "../queries/probes";
import type { QueueItem, QueueProgress, ResolvedScope } from "../queries/queue";
import { currentReviews, writeReviews } from "../queries/reviews";
import { writeSync } from "../write";
import { ingestText, traceLine } from "./ingest";
import { everyTraceRow } from "./reviews";

const text = (t: string) => ({ response: { text: t, tool_calls: [] } });
const ARGS = { user_id: "u_9182", starts_at: "2026-09-08T09:00:00" };

/** A chat completion whose only call is a fenced JSON block in its text. */
function fencedRaw(args: Record<string, unknown>) {
  const block = JSON.stringify({ name: "schedule_window", arguments: { ...ARGS, ...args } });
  return {
    object: "chat.completion",
    choices: [{ message: { role: "assistant", content: `Here it is:\n\`\`\`json\n${block}\n\`\`\`` } }],
  };
}

/** Lines meeting each rule schedule_window can raise (all but ask_and_call), and some no rule queues. */
export function queueRunLines(prefix: string, probe = "schedule_window"): string[] {
  const p = { probe };
  return [
    traceLine({
      id: `${prefix}-drift-q`,
      ...p,
      ...text("Which region is u_9182 in? I need that to place 09:00 correctly."),
    }),
    traceLine({ id: `${prefix}-ask`, ...p, ...text("Which timezone should I use?") }),
    traceLine({ id: `${prefix}-drift`, ...p, ...text("Done.") }),
    traceLine({ id: `${prefix}-rec`, ...p, label: "ASK" }, { timezone: "UTC" }),
    traceLine({ id: `${prefix}-imp`, ...p, human: { timezone: "ASK" } }, { timezone: "UTC" }),
    traceLine({ id: `${prefix}-imp-agree`, ...p, human: { timezone: "INJECT" } }, { timezone: "UTC" }),
    JSON.stringify({
      schema: "assumeprobe/trace@1",
      id: `${prefix}-fenced`,
      ...p,
      raw: fencedRaw({ timezone: "UTC" }),
    }),
    traceLine({ id: `${prefix}-typed`, ...p }, { timezone: "2026-09-08T09:00:00" }),
    JSON.stringify({
      schema: "assumeprobe/trace@1",
      id: `${prefix}-wrong`,
      ...p,
      response: {
        text: null,
        tool_calls: [{ name: "cancel_window", arguments: { ...ARGS, timezone: "UTC" } }],
      },
    }),
    traceLine({ id: `${prefix}-omit`, ...p }),
    traceLine({
      id: `${prefix}-both`,
      ...p,
      human: { severity: "DRIFT" },
      ...text("Please confirm the severity."),
    }),
  ];
}

/** A call to the clarify tool that names the timezone, with a question in the text. */
function clarifyLine(id: string): string {
  return JSON.stringify({
    schema: "assumeprobe/trace@1",
    id,
    probe: "window_c",
    response: {
      text: "Which timezone is the user in?",
      tool_calls: [{ name: "ask_user", arguments: { question: "What is the timezone?" } }],
    },
  });
}

/**
 * Two runs of one model (the second newer) and a run of another; the first also holds traces of a
 * second probe and of one with a clarify tool.
 */
export async function loadQueueRuns(db: Db): Promise<Map<string, number>> {
  saveProbe(db, variant({ id: "window_b" }), "file:window_b.json");
  saveProbe(db, variant({ id: "window_c", clarify_tool: "ask_user" }), "file:window_c.json");
  const old = [...queueRunLines("o"), ...queueRunLines("b", "window_b"), clarifyLine("c-clarify")];
  await ingestText(db, "q-old.jsonl", `${old.join("\n")}\n`, {
    run: "q-old",
    model: "tern",
  });
  await ingestText(db, "q-new.jsonl", `${queueRunLines("n").join("\n")}\n`, { run: "q-new", model: "tern" });
  await ingestText(db, "q-other.jsonl", `${queueRunLines("x").join("\n")}\n`, {
    run: "q-other",
    model: "plover",
  });
  const rows = db.sqlite.prepare("SELECT ext_id AS ext, id FROM traces").all() as {
    ext: string;
    id: number;
  }[];
  return new Map(rows.map((r) => [r.ext, r.id]));
}

interface SlowTrace {
  id: number;
  runId: number;
  probeId: string;
  labels: Record<string, string>;
  fields: QueueInput["fields"];
  rules: Record<string, QueueRule[]>;
}

/** Every trace with its rules, read the slow way, and each field's current review label. */
function slowState(db: Db) {
  const traces = everyTraceRow(db).map((t): SlowTrace => {
    const score = JSON.parse(t.result) as TraceScore;
    const labels: Record<string, string> = {};
    for (const [f, s] of Object.entries(score.fields)) labels[f] = s.label;
    return {
      id: t.id,
      runId: t.runId,
      probeId: t.probeId,
      labels,
      fields: score.fields,
      rules: queueRulesOf({
        fields: score.fields,
        flags: score.flags,
        text: t.text,
        imported: t.human ? JSON.parse(t.human) : null,
        recorded: t.recorded ? JSON.parse(t.recorded) : null,
      }),
    };
  });
  const current = new Map<string, string | null>();
  for (const r of db.sqlite.prepare("SELECT trace_id AS t, field, label FROM reviews ORDER BY id").all() as {
    t: number;
    field: string;
    label: string | null;
  }[])
    current.set(`${r.t}\u0000${r.field}`, r.label);
  return { traces, current };
}

const inScope = (s: ResolvedScope, t: SlowTrace) =>
  (s.runIds === null || s.runIds.includes(t.runId)) && (s.probe === null || s.probe === t.probeId);

/** The queue of a scope in order, and its progress, worked out from every trace and review. */
export function slowQueue(db: Db, s: ResolvedScope): { items: QueueItem[]; progress: QueueProgress } {
  const { traces, current } = slowState(db);
  const items: QueueItem[] = [];
  const progress: QueueProgress = {
    waiting: {},
    waitingTotal: 0,
    corrects: 0,
    confirms: 0,
    reviewed: 0,
    total: 0,
  };
  for (const t of traces) {
    if (!inScope(s, t)) continue;
    const waitingSlots = new Set<QueueSlot>();
    for (const [field, rules] of Object.entries(t.rules)) {
      const review = current.get(`${t.id}\u0000${field}`);
      if (review) {
        if (review === t.labels[field]) progress.confirms++;
        else progress.corrects++;
        continue;
      }
      waitingSlots.add(queueSlot(rules[0], t.fields));
      progress.waiting[rules[0]] = (progress.waiting[rules[0]] ?? 0) + 1;
      progress.waitingTotal++;
    }
    for (const slot of waitingSlots)
      items.push({ traceId: t.id, runId: t.runId, slot, rule: slotRule(slot) });
  }
  items.sort((a, b) => SLOT_RANK[a.slot] - SLOT_RANK[b.slot] || b.runId - a.runId || a.traceId - b.traceId);
  progress.reviewed = progress.corrects + progress.confirms;
  progress.total = progress.reviewed + progress.waitingTotal;
  return { items, progress };
}

/** Random sequences of reviews, clears and undos on the given traces' timezone and severity fields. */
export function reviewSteps(traces: number[], maxLength: number) {
  const step = fc.record({
    trace: fc.constantFrom(...traces),
    field: fc.constantFrom("timezone", "severity"),
    op: fc.constantFrom("label", "label", "clear", "undo"),
    label: fc.constantFrom(...LABELS),
  });
  return fc.array(step, { minLength: 1, maxLength });
}

/** Writes each step through the one write path, on the field's current review (an undo of nothing is skipped). */
export function applyReviewSteps(
  db: Db,
  steps: { trace: number; field: string; op: string; label: string }[],
): void {
  for (const st of steps) {
    const cur = currentReviews(db, st.trace).get(st.field);
    if (st.op === "undo" && !cur) continue;
    const r = writeSync(db, () =>
      writeReviews(db, {
        traceId: st.trace,
        reviewer: "prop",
        items: [
          {
            field: st.field,
            label: st.op === "label" ? (st.label as Label) : null,
            base: cur?.id ?? null,
            undo: st.op === "undo",
          },
        ],
      }),
    );
    expect(r.ok).toBe(true);
  }
}
