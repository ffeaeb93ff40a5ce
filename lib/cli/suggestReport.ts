import type { SuggestResult } from "../../db/queries/suggest";
import type { SourceSentence } from "../tuning/suggest";
import { describeChange } from "../tuning/types";

const n = (x: number) => x.toLocaleString("en-US");

/** A source sentence with its term in brackets: `Where are you [located]?`. */
export function markedSentence(s: SourceSentence): string {
  if (!s.mark) return s.sentence;
  const [a, b] = s.mark;
  return `${s.sentence.slice(0, a)}[${s.sentence.slice(a, b)}]${s.sentence.slice(b)}`;
}

/** Where the suggestions were learned, in words. */
export function scopeText(r: SuggestResult): string {
  const parts: string[] = [];
  if (r.scope.runs.length) parts.push(`run${r.scope.runs.length > 1 ? "s" : ""} ${r.scope.runs.join(", ")}`);
  if (r.scope.sets.length) parts.push(`set${r.scope.sets.length > 1 ? "s" : ""} ${r.scope.sets.join(", ")}`);
  if (parts.length === 0) parts.push("every run and fixture set");
  if (r.scope.probe !== undefined) parts.push(`probe ${r.scope.probe}`);
  return parts.join(", ");
}

export function targetText(r: SuggestResult): string {
  return r.target.kind === "lexicon"
    ? `the lexicon (v${r.target.version})`
    : `${r.target.probe}'s own terms (v${r.target.version})`;
}

/** The suggestions as lines for a terminal. */
export function suggestionLines(r: SuggestResult): string[] {
  const c = r.counted;
  const out = [
    `suggestions for ${targetText(r)} from ${n(c.fields)} human-labelled fields (${scopeText(r)}): ${n(c.missedAsks)} questions scored DRIFT, ${n(c.wrongAsks)} DRIFTs scored ASK${c.missing ? `; ${n(c.missing)} fields left out (their probe version is gone)` : ""}`,
  ];
  out.push(
    `a suggestion needs ${n(r.needs.fixes)} fixes from ${n(r.needs.traces)} different traces (--min-fixes, --min-traces); "*" is every field of every probe`,
  );
  if (r.suggestions.length === 0) out.push("no change fixes more of them than it breaks");
  r.suggestions.forEach((s, k) => {
    out.push(
      `${String(k + 1).padStart(3)}. ${describeChange(s.change)}: fixes ${n(s.fixes)} (from ${n(s.traces)} traces), breaks ${n(s.breaks)}${s.reviewed.length ? `, moves ${n(s.reviewed.length)} reviewed field${s.reviewed.length === 1 ? "" : "s"} away from their review` : ""}`,
    );
    const w = s.whatIf;
    if (w) {
      const f = w.fixtures;
      const t = w.traces;
      out.push(
        `     what-if (with the ones above): fixtures ${n(f.fixed)} fixed, ${n(f.broken)} broken${f.seedBroken ? ` (${n(f.seedBroken)} in the seed set)` : ""}; stored labels ${n(t.moved)} move (${n(t.agrees)} to a human label, ${n(t.disagrees)} away from one)`,
      );
    }
    for (const src of s.sources) out.push(`     “${markedSentence(src)}”`);
  });
  out.push(`(read and scored ${n(r.ms.read)} ms, ranked ${n(r.ms.rank)} ms, what-ifs ${n(r.ms.whatIf)} ms)`);
  return out;
}
