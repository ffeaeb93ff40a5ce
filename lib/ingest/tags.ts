import type { TraceScore } from "../probe/score";

/**
 * The filterable facts of a scored trace, as tag names. The run page filters by intersecting
 * tags; the overview counts them per run without scanning traces.
 */
/** The field name of "any field" tags. */
export const ANY_FIELD = "*";

export const tag = {
  probe: (id: string) => `p:${id}`,
  label: (field: string, label: string) => `l:${field}=${label}`,
  reason: (field: string, reason: string) => `r:${field}=${reason}`,
  fieldFlag: (field: string, flag: string) => `ff:${field}=${flag}`,
  flag: (flag: string) => `f:${flag}`,
  gate: (verdict: string) => `g:${verdict}`,
  /** An imported human label's agreement with ours. */
  human: (field: string, agrees: boolean) => `h:${field}=${agrees ? "agree" : "disagree"}`,
  humanLabel: (field: string, label: string) => `hl:${field}=${label}`,
  /** A recorded (harness) label's agreement with ours. */
  recorded: (field: string, agrees: boolean) => `rec:${field}=${agrees ? "agree" : "disagree"}`,
  sideEffect: (field: string, label: string) => `se:${field}=${label}`,
  all: () => "all",
};

export function traceTags(
  probeId: string,
  score: TraceScore,
  human: Readonly<Record<string, string>> | undefined,
  recorded: Readonly<Record<string, string>> | undefined,
): string[] {
  const tags = [tag.probe(probeId), tag.gate(score.gate.verdict)];
  for (const [field, f] of Object.entries(score.fields)) {
    tags.push(tag.label(field, f.label));
    if (f.reasons) for (const r of f.reasons) tags.push(tag.reason(field, r));
    for (const fl of f.flags) tags.push(tag.fieldFlag(field, fl));
    const h = human?.[field];
    if (h !== undefined) {
      tags.push(tag.human(field, h.toUpperCase() === f.label), tag.humanLabel(field, h.toUpperCase()));
    }
    const rec = recorded?.[field];
    if (rec !== undefined) tags.push(tag.recorded(field, rec.toUpperCase() === f.label));
  }
  for (const fl of score.flags) tags.push(tag.flag(fl));
  if (score.side_effect) {
    for (const [field, f] of Object.entries(score.side_effect.fields)) {
      tags.push(tag.sideEffect(field, f.label));
      for (const fl of f.flags) tags.push(tag.fieldFlag(field, fl));
    }
  }
  // "Any field" tags: one per distinct value, so runs whose probes name different fields
  // (When2Call has a hundred) can still be filtered by label, reason or agreement.
  const any = new Set<string>();
  for (const t of tags) {
    const p = parseTag(t);
    if (p?.field != null) any.add(`${t.slice(0, t.indexOf(":") + 1)}${ANY_FIELD}=${p.value}`);
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
