import type { TraceScore } from "../probe/score";

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
} as const;

function fieldTag(prefix: string, field: string, value: string): string {
  return `${prefix}:${field}=${value}`;
}

/** How a human or recorded label stands against ours. */
export const AGREEMENT = ["agree", "disagree"] as const;
const agreement = (agrees: boolean) => (agrees ? AGREEMENT[0] : AGREEMENT[1]);

export const tag = {
  probe: (id: string) => `p:${id}`,
  label: (field: string, label: string) => fieldTag(FIELD_PREFIX.label, field, label),
  reason: (field: string, reason: string) => fieldTag(FIELD_PREFIX.reason, field, reason),
  fieldFlag: (field: string, flag: string) => fieldTag(FIELD_PREFIX.fieldFlag, field, flag),
  flag: (flag: string) => `f:${flag}`,
  gate: (verdict: string) => `g:${verdict}`,
  /** An imported human label's agreement with ours. */
  human: (field: string, agrees: boolean) => fieldTag(FIELD_PREFIX.human, field, agreement(agrees)),
  humanLabel: (field: string, label: string) => fieldTag(FIELD_PREFIX.humanLabel, field, label),
  /** A recorded (harness) label's agreement with ours. */
  recorded: (field: string, agrees: boolean) => fieldTag(FIELD_PREFIX.recorded, field, agreement(agrees)),
  sideEffect: (field: string, label: string) => fieldTag(FIELD_PREFIX.sideEffect, field, label),
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

export function traceTags(
  probeId: string,
  score: TraceScore,
  human: Readonly<Record<string, string>> | undefined,
  recorded: Readonly<Record<string, string>> | undefined,
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
    const h = human?.[field];
    if (h !== undefined) {
      const hu = h.toUpperCase();
      perField(FIELD_PREFIX.human, field, agreement(hu === f.label));
      perField(FIELD_PREFIX.humanLabel, field, hu);
    }
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
  return [...new Set(tags)];
}

export type TagKind =
  | "probe"
  | "label"
  | "reason"
  | "fieldFlag"
  | "flag"
  | "gate"
  | "human"
  | "humanLabel"
  | "recorded"
  | "sideEffect";

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
  h: "human",
  hl: "humanLabel",
  rec: "recorded",
  se: "sideEffect",
};

/** The inverse of `tag.*`: kind, field (for per-field tags) and value. */
export function parseTag(name: string): ParsedTag | null {
  const colon = name.indexOf(":");
  if (colon < 0) return null;
  const kind = KINDS[name.slice(0, colon)];
  if (!kind) return null;
  const rest = name.slice(colon + 1);
  if (kind === "probe" || kind === "flag" || kind === "gate") return { kind, field: null, value: rest };
  const eq = rest.lastIndexOf("=");
  if (eq < 0) return null;
  return { kind, field: rest.slice(0, eq), value: rest.slice(eq + 1) };
}
