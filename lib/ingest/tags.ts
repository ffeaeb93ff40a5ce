import type { TraceScore } from "../probe/score";

/**
 * The filterable facts of a scored trace, as tag names. The run page filters by intersecting
 * tags; the overview counts them per run without scanning traces.
 */
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
  return tags;
}
