import type { TraceScore } from "../probe/score";
import { DISPUTED, humanLabel, reviewMeaning } from "../review/humanLabel";
import { type QueueSlot, queueRulesOf, queueSlot } from "../review/queueRules";

/**
 * The filterable facts of a scored trace, as tag names. The run page filters by intersecting
 * tags; the overview counts them per run without scanning traces.
 */
/** The field name of "any field" tags. */
export const ANY_FIELD = "*";

/** Prefixes of the per-field tags (`prefix:field=value`). */
const FIELD_PREFIX = {
  label: "l",
  reason: "r",
  fieldFlag: "ff",
  human: "h",
  humanLabel: "hl",
  recorded: "rec",
  sideEffect: "se",
  review: "rv",
  humanPair: "hp",
  queue: "q",
  queueDone: "qd",
} as const;

/** Prefix of the queue's per-probe tags (`qp:probe=rule`). */
const QUEUE_PROBE_PREFIX = "qp";

function fieldTag(prefix: string, field: string, value: string): string {
  return `${prefix}:${field}=${value}`;
}

/** How a human or recorded label stands against ours. */
export const AGREEMENT = ["agree", "disagree"] as const;
const agreement = (agrees: boolean) => (agrees ? AGREEMENT[0] : AGREEMENT[1]);

/**
 * What a field's current review says, as tags: `reviewed` (it has a label; a clear withdraws it)
 * and whether it `corrects` our label or `confirms` it. The run page's reviewed / unreviewed
 * filters and the review counts (progress, corrected vs confirmed) read them.
 */
export const REVIEW_KINDS = ["reviewed", "corrects", "confirms"] as const;

/**
 * Per field, the label of its current review (null: a clear; DISPUTED from lib/review/humanLabel.ts:
 * blind reviewers disagree, no human label); fields with no review are absent.
 */
export type CurrentReviewLabels = Readonly<Record<string, string | null>>;

export const tag = {
  probe: (id: string) => `p:${id}`,
  label: (field: string, label: string) => fieldTag(FIELD_PREFIX.label, field, label),
  reason: (field: string, reason: string) => fieldTag(FIELD_PREFIX.reason, field, reason),
  fieldFlag: (field: string, flag: string) => fieldTag(FIELD_PREFIX.fieldFlag, field, flag),
  flag: (flag: string) => `f:${flag}`,
  gate: (verdict: string) => `g:${verdict}`,
  /** A gate-log decision's tool (lib/ingest/gateLog.ts). */
  tool: (name: string) => `gt:${name}`,
  /** A fact that was unknown when a gate-log decision blocked. */
  gateUnknown: (name: string) => `gu:${name}`,
  /** A fact that conflicted when a gate-log decision blocked. */
  gateConflict: (name: string) => `gx:${name}`,
  /** The current human label's (review, else imported) agreement with ours. */
  human: (field: string, agrees: boolean) => fieldTag(FIELD_PREFIX.human, field, agreement(agrees)),
  /** The current human label: the field's current review, else its imported label. */
  humanLabel: (field: string, label: string) => fieldTag(FIELD_PREFIX.humanLabel, field, label),
  /** What the field's current review says (REVIEW_KINDS). */
  review: (field: string, kind: (typeof REVIEW_KINDS)[number]) => fieldTag(FIELD_PREFIX.review, field, kind),
  /** A recorded (harness) label's agreement with ours. */
  recorded: (field: string, agrees: boolean) => fieldTag(FIELD_PREFIX.recorded, field, agreement(agrees)),
  sideEffect: (field: string, label: string) => fieldTag(FIELD_PREFIX.sideEffect, field, label),
  /** Our label and the current human label of a field that has one: the agreement counts. */
  humanPair: (field: string, ours: string, human: string) =>
    fieldTag(FIELD_PREFIX.humanPair, field, `${ours}/${human}`),
  /** A field waiting in the review queue, in the slot of its first rule (lib/review/queueRules.ts). */
  queue: (field: string, slot: QueueSlot) => fieldTag(FIELD_PREFIX.queue, field, slot),
  /** A trace of this probe with a field waiting in this slot: the queue scoped by probe. */
  queueProbe: (probeId: string, slot: QueueSlot) => fieldTag(QUEUE_PROBE_PREFIX, probeId, slot),
  /** A field a rule queued that has been reviewed: whether the review corrects ours or confirms it. */
  queueDone: (field: string, meaning: "corrects" | "confirms") =>
    fieldTag(FIELD_PREFIX.queueDone, field, meaning),
  all: () => "all",
};

/** Tag names by prefix, field and value: ingest builds the same few dozen names millions of times. */
const pairs = new Map<string, Map<string, Map<string, [string, string]>>>();
let cachedPairs = 0;

/** `prefix:field=value` and its "any field" twin `prefix:*=value`. */
function fieldTagPair(prefix: string, field: string, value: string): [string, string] {
  let byField = pairs.get(prefix);
  if (!byField) {
    byField = new Map();
    pairs.set(prefix, byField);
  }
  let byValue = byField.get(field);
  if (!byValue) {
    byValue = new Map();
    byField.set(field, byValue);
  }
  let pair = byValue.get(value);
  if (!pair) {
    pair = [fieldTag(prefix, field, value), fieldTag(prefix, ANY_FIELD, value)];
    // Field names come from probes (When2Call has hundreds): cache a bounded number.
    if (cachedPairs < 50_000) {
      byValue.set(value, pair);
      cachedPairs++;
    }
  }
  return pair;
}

type PerField = (prefix: string, field: string, value: string) => void;

/**
 * A field's human-label tags: the current human label, its agreement with ours, what its review
 * says, and the pair (ours, human) the agreement page counts (per field only: no twin).
 */
function addHumanTags(
  perField: PerField,
  out: string[],
  field: string,
  ours: string,
  imported: string | undefined,
  review: string | null | undefined,
): void {
  const current = review === undefined ? undefined : { label: review };
  const h = humanLabel(current, imported);
  if (h !== undefined) {
    perField(FIELD_PREFIX.human, field, agreement(h.label === ours));
    perField(FIELD_PREFIX.humanLabel, field, h.label);
    out.push(tag.humanPair(field, ours, h.label));
  }
  // A disputed field (blind reviewers disagree) is reviewed but has no human label.
  if (review === DISPUTED) perField(FIELD_PREFIX.review, field, REVIEW_KINDS[0]);
  else if (review) {
    perField(FIELD_PREFIX.review, field, REVIEW_KINDS[0]);
    perField(FIELD_PREFIX.review, field, reviewMeaning(review, ours));
  }
}

/**
 * The human-label tags of a trace's fields (with their any-field twins): what a review rewrites,
 * beside `queueTags`. `traceTags` holds the same ones among the rest.
 */
export function humanTags(
  fields: Readonly<Record<string, { label: string }>>,
  human: Readonly<Record<string, string>> | undefined | null,
  reviews: CurrentReviewLabels | undefined,
): string[] {
  const tags: string[] = [];
  const any: string[] = [];
  const perField: PerField = (prefix, field, value) => {
    const [t, a] = fieldTagPair(prefix, field, value);
    tags.push(t);
    if (!any.includes(a)) any.push(a);
  };
  for (const field of Object.keys(fields)) {
    addHumanTags(perField, tags, field, fields[field].label, human?.[field], reviews?.[field]);
  }
  return [...tags, ...any];
}

/**
 * The review queue's tags of a trace (lib/review/queueRules.ts): each field a rule queues and no
 * review has labelled carries `q:field=slot` (its first rule's slot), with the any-field twin
 * `q:*=slot` and `qp:probe=slot`, so the queue's next item in a run, or in a run and probe, is the first row
 * of one index range; a queued field that has been reviewed carries `qd:field=corrects|confirms`
 * instead (the queue's progress). A review rewrites them with the human-label tags.
 */
export function queueTags(
  probeId: string,
  score: Pick<TraceScore, "fields" | "flags">,
  human: Readonly<Record<string, string>> | undefined | null,
  recorded: Readonly<Record<string, string>> | undefined | null,
  reviews: CurrentReviewLabels | undefined,
  text: string | null | undefined,
): string[] {
  const rules = queueRulesOf({ fields: score.fields, flags: score.flags, text, imported: human, recorded });
  const tags: string[] = [];
  const any: string[] = [];
  for (const field of Object.keys(rules)) {
    const rule = rules[field][0];
    const review = reviews?.[field];
    // A disputed field has left the queue for adjudication.
    if (review === DISPUTED) continue;
    if (review) {
      tags.push(
        tag.queueDone(field, reviewMeaning(review, score.fields[field].label) as "corrects" | "confirms"),
      );
      continue;
    }
    const slot = queueSlot(rule, score.fields);
    const [t, a] = fieldTagPair(FIELD_PREFIX.queue, field, slot);
    tags.push(t);
    if (!any.includes(a)) any.push(a, tag.queueProbe(probeId, slot));
  }
  return any.length ? [...tags, ...any] : tags;
}

/**
 * Every filterable tag of a scored trace. `human` are its imported labels, `reviews` its current
 * reviews (none at ingest): human-label tags mean the current human label. `text` is the response
 * text, which the review queue's rules read.
 */
export function traceTags(
  probeId: string,
  score: TraceScore,
  human: Readonly<Record<string, string>> | undefined | null,
  recorded: Readonly<Record<string, string>> | undefined | null,
  reviews: CurrentReviewLabels | undefined,
  text: string | null | undefined,
): string[] {
  const tags = [tag.probe(probeId), tag.gate(score.gate.verdict)];
  // "Any field" tags: one per distinct value, so runs whose probes name different fields
  // (When2Call has a hundred) can still be filtered by label, reason or agreement. Built beside
  // each per-field tag, in the order those come.
  const any: string[] = [];
  const perField = (prefix: string, field: string, value: string) => {
    const [t, a] = fieldTagPair(prefix, field, value);
    tags.push(t);
    if (!any.includes(a)) any.push(a);
  };
  for (const field of Object.keys(score.fields)) {
    const f = score.fields[field];
    perField(FIELD_PREFIX.label, field, f.label);
    if (f.reasons) for (const r of f.reasons) perField(FIELD_PREFIX.reason, field, r);
    for (const fl of f.flags) perField(FIELD_PREFIX.fieldFlag, field, fl);
    addHumanTags(perField, tags, field, f.label, human?.[field], reviews?.[field]);
    const rec = recorded?.[field];
    if (rec !== undefined) perField(FIELD_PREFIX.recorded, field, agreement(rec.toUpperCase() === f.label));
  }
  for (const fl of score.flags) tags.push(tag.flag(fl));
  if (score.side_effect) {
    const se = score.side_effect.fields;
    for (const field of Object.keys(se)) {
      perField(FIELD_PREFIX.sideEffect, field, se[field].label);
      for (const fl of se[field].flags) perField(FIELD_PREFIX.fieldFlag, field, fl);
    }
  }
  for (const a of any) tags.push(a);
  for (const q of queueTags(probeId, score, human, recorded, reviews, text)) tags.push(q);
  return [...new Set(tags)];
}

export type TagKind =
  | "probe"
  | "label"
  | "reason"
  | "fieldFlag"
  | "flag"
  | "gate"
  | "tool"
  | "gateUnknown"
  | "gateConflict"
  | "human"
  | "humanLabel"
  | "recorded"
  | "sideEffect"
  | "review"
  | "humanPair"
  | "queue"
  | "queueProbe"
  | "queueDone";

export interface ParsedTag {
  kind: TagKind;
  field: string | null;
  value: string;
}

const KINDS: Record<string, TagKind> = {
  p: "probe",
  l: "label",
  r: "reason",
  ff: "fieldFlag",
  f: "flag",
  g: "gate",
  gt: "tool",
  gu: "gateUnknown",
  gx: "gateConflict",
  h: "human",
  hl: "humanLabel",
  rec: "recorded",
  se: "sideEffect",
  rv: "review",
  hp: "humanPair",
  q: "queue",
  qp: "queueProbe",
  qd: "queueDone",
};

/** Kinds whose tag is `prefix:value`, with no field. */
const NAME_KINDS = new Set<TagKind>(["probe", "flag", "gate", "tool", "gateUnknown", "gateConflict"]);

/** The inverse of `tag.*`: kind, field (for per-field tags) and value. */
export function parseTag(name: string): ParsedTag | null {
  const colon = name.indexOf(":");
  if (colon < 0) return null;
  const kind = KINDS[name.slice(0, colon)];
  if (!kind) return null;
  const rest = name.slice(colon + 1);
  if (NAME_KINDS.has(kind)) return { kind, field: null, value: rest };
  const eq = rest.lastIndexOf("=");
  if (eq < 0) return null;
  return { kind, field: rest.slice(0, eq), value: rest.slice(eq + 1) };
}
