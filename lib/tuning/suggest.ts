import type { Label } from "../probe/schema";
import { questionSentences, splitSentences } from "../review/question";
import { type AdditionContext, AdditionIndex, type Candidate } from "./additions";
import { type TextSentences, textSentences, wordCount } from "./grams";
import { isContentTerm } from "./stopWords";
import {
  describeChange,
  type LabelledField,
  type SuggestionEvaluator,
  type TermChange,
  traceOf,
} from "./types";

/**
 * Suggestions (DESIGN.md, "Tuning the scorer"): from the fields whose human label is ASK and ours
 * DRIFT, candidate terms (lib/tuning/grams.ts), ranked by net fixes: the misses a term fixes minus
 * the fields with a human label other than ASK it would turn to ASK. And the reverse, where ours
 * says ASK and humans said DRIFT: a term to remove, or the `question` rule. Greedy: each
 * suggestion is counted on what the ones before it left, so the list is one draft in order and
 * its top N can be saved together.
 *
 * The input is the scope: only the fields given are counted, so a caller that passes one run's
 * labels ranks by that run alone.
 *
 * Counting: an addition is counted from the occurrences of its term in the texts of the field's
 * DRIFT fields, kept where the evaluator accepts them (whole words for the lexicon) and, under the
 * `question` rule, inside a question sentence. The chosen one is then checked field by field with
 * the evaluator's label (the real scorer); should the two ever differ, the scorer's counts stand
 * and the ranking is taken again. Removals and rule changes are counted with the scorer directly.
 */

/** How many source sentences a suggestion carries. */
export const MAX_SOURCES = 3;
/** How many suggestions a list holds unless told. */
export const DEFAULT_SUGGESTIONS = 20;
/** A suggestion needs at least this many fixes (DESIGN.md; configurable)... */
export const DEFAULT_MIN_FIXES = 2;
/** ...from at least this many different traces. */
export const DEFAULT_MIN_TRACES = 2;
/** On a tie in net, how many of the tied have their unchecked moves counted (first by `better`). */
export const MAX_TIED = 8;
/** The lexicon key of terms for every field (lib/lexicon/lexicon.ts, ANY_FIELD_ENTRY). */
const ANY = "*";

export interface SourceSentence {
  /** The field it came from. */
  key: string;
  sentence: string;
  /** The term inside the sentence, [start, end); null when it cannot be placed. */
  mark: [number, number] | null;
}

export interface Suggestion {
  change: TermChange;
  /** Counted after the suggestions before it: misses fixed, and fields it would make wrong. */
  fixes: number;
  breaks: number;
  net: number;
  fixed: string[];
  broken: string[];
  /** Where the term came from (additions: inside a question when it could), with the term marked. */
  sources: SourceSentence[];
  /** An addition found inside a question sentence. */
  inQuestion: boolean;
  /** How many different traces its fixes come from. */
  traces: number;
  /** Of `broken`, the fields whose human label is a review: moved away from what a person said. */
  reviewed: string[];
}

export interface SuggestOptions {
  /** The most suggestions to list (default DEFAULT_SUGGESTIONS). */
  limit?: number;
  /** Fixes a suggestion needs (default DEFAULT_MIN_FIXES). */
  minFixes?: number;
  /** Different traces its fixes must come from (default DEFAULT_MIN_TRACES). */
  minTraces?: number;
  /**
   * Whether terms may go to the lexicon's `*` entry (every field) when their net fixes summed over
   * every field exceed their best single field's (default: when the evaluator edits the lexicon).
   */
  anyField?: boolean;
  /**
   * How many stored labels of fields no human checked (no review, no imported label) the change
   * would move, with the draft before it: on a tie in net, fewer ranks first. Counted only for the
   * tied (at most MAX_TIED), as the what-if counts them (db/queries/suggest.ts).
   */
  unchecked?: (change: TermChange, draft: readonly TermChange[]) => number;
  /** Told when the counting index and the scorer disagreed on an addition (the scorer's counts were kept). */
  onDisagreement?: (d: { change: TermChange; index: [number, number]; scorer: [number, number] }) => void;
}

interface FieldState {
  items: number[];
  additions: AdditionIndex | null;
  reverse: Evaluated[] | null;
  ruleChanged: boolean;
}

interface Evaluated {
  change: TermChange;
  fixes: number;
  breaks: number;
  fixed: number[];
  broken: number[];
  moves: { item: number; after: Label }[];
  /** Sort keys for ties. */
  inQuestion: boolean;
  content: boolean;
  words: number;
  term: string;
}

type Ranked = Pick<Evaluated, "fixes" | "breaks" | "inQuestion" | "content" | "words" | "term">;

/** A rule change touches every term of a field: on a tie, a term change goes first. */
const RULE_TIES = { words: Number.MAX_SAFE_INTEGER } as const;

/** Orders two suggestions: net, then (the caller counting them: fewestUnchecked) fewer unchecked moves, then fixes, then found in a question, a content word, fewer words, alphabetical. */
function better(a: Ranked, b: Ranked): boolean {
  const na = a.fixes - a.breaks;
  const nb = b.fixes - b.breaks;
  if (na !== nb) return na > nb;
  if (a.fixes !== b.fixes) return a.fixes > b.fixes;
  if (a.inQuestion !== b.inQuestion) return a.inQuestion;
  if (a.content !== b.content) return a.content;
  if (a.words !== b.words) return a.words < b.words;
  return a.term < b.term;
}

const termsAdded = (draft: readonly TermChange[], field: string) =>
  new Set(draft.flatMap((c) => (c.kind === "add" && c.field === field ? [c.term] : [])));

export function suggestChanges(
  items: readonly LabelledField[],
  ev: SuggestionEvaluator,
  options: SuggestOptions = {},
): Suggestion[] {
  const limit = options.limit ?? DEFAULT_SUGGESTIONS;
  const minFixes = Math.max(1, options.minFixes ?? DEFAULT_MIN_FIXES);
  const minTraces = Math.max(1, options.minTraces ?? DEFAULT_MIN_TRACES);
  /** Whether an evaluated change has enough fixes, from enough different traces. */
  const enough = (e: Evaluated): boolean => {
    if (e.fixes < minFixes) return false;
    if (minTraces <= 1) return true;
    const traces = new Set<string>();
    for (const i of e.fixed) {
      traces.add(traceOf(items[i]));
      if (traces.size >= minTraces) return true;
    }
    return false;
  };
  const cur: Label[] = items.map((i) => i.ours);
  const lowerCache = new Map<number, string>();
  const lower = (i: number) => {
    let l = lowerCache.get(i);
    if (l === undefined) {
      l = items[i].text.toLowerCase();
      lowerCache.set(i, l);
    }
    return l;
  };
  const sentenceCache = new Map<number, TextSentences>();
  /** Prepared texts per item (negative keys: under the question rule). */
  const scanCache = new Map<number, string[]>();
  const ctx: AdditionContext = {
    items,
    cur,
    sentences(i) {
      let s = sentenceCache.get(i);
      if (s === undefined) {
        s = textSentences(lower(i));
        sentenceCache.set(i, s);
      }
      return s;
    },
    scanTexts(i, question) {
      const key = question ? -1 - i : i;
      let out = scanCache.get(key);
      if (out === undefined) {
        const l = lower(i);
        out =
          l === "" ? [] : question ? ctx.sentences(i).questions.map((q) => ev.prepare(q)) : [ev.prepare(l)];
        for (const s of items[i].also ?? []) out.push(ev.prepare(s));
        scanCache.set(key, out);
      }
      return out;
    },
    accepts: (text, start, end) => ev.accepts(text, start, end),
  };

  const fields = new Map<string, FieldState>();
  items.forEach((it, i) => {
    let f = fields.get(it.field);
    if (!f) {
      f = { items: [], additions: null, reverse: null, ruleChanged: false };
      fields.set(it.field, f);
    }
    f.items.push(i);
  });
  // The `*` entry: one more candidate list, over every field. A term there is counted on every
  // field at once, so it wins only when its net summed over every field beats each field's own.
  if (options.anyField ?? ev.rules) {
    fields.set(ANY, {
      items: items.map((_, i) => i),
      additions: null,
      reverse: null,
      ruleChanged: false,
    });
  }

  let draft: TermChange[] = [];

  /** Scores one change with the scorer on the given items: fixes and breaks as DESIGN.md counts them. */
  const evaluate = (change: TermChange, on: readonly number[], extra: Partial<Evaluated> = {}): Evaluated => {
    const next = [...draft, change];
    const out: Evaluated = {
      change,
      fixes: 0,
      breaks: 0,
      fixed: [],
      broken: [],
      moves: [],
      inQuestion: false,
      content: true,
      words: 0,
      term: change.kind === "rule" ? "" : change.term,
      ...extra,
    };
    for (const i of on) {
      const before = cur[i];
      const after = ev.label(items[i], next);
      if (after === before) continue;
      out.moves.push({ item: i, after });
      const human = items[i].human;
      let fix: boolean;
      let brk: boolean;
      if (after === "ASK") {
        // DESIGN.md: a term is charged for every field with another human label it turns to ASK.
        fix = human === "ASK";
        brk = !fix;
      } else {
        fix = after === human;
        brk = before === human;
      }
      if (fix) {
        out.fixes++;
        out.fixed.push(i);
      } else if (brk) {
        out.breaks++;
        out.broken.push(i);
      }
    }
    return out;
  };

  const buildReverse = (field: string, f: FieldState): Evaluated[] => {
    const out: Evaluated[] = [];
    // The `*` entry's reverse (a term to remove, its rule) only once it holds terms.
    if (field === ANY && ev.removable(ANY, draft).length === 0) return out;
    const asked = f.items.filter((i) => cur[i] === "ASK");
    const wrongAsk = asked.some((i) => items[i].human === "DRIFT");
    const rule = ev.rule(field, draft);
    if (wrongAsk) {
      const added = termsAdded(draft, field);
      for (const term of ev.removable(field, draft)) {
        if (added.has(term)) continue;
        const needle = term.toLowerCase().replace(/\*$/, "").split(" ")[0];
        const on = asked.filter((i) => lower(i).includes(needle));
        if (on.length === 0) continue;
        const e = evaluate({ kind: "remove", field, term }, on, {
          content: isContentTerm(term),
          words: wordCount(term),
        });
        if (e.fixes > 0) out.push(e);
      }
      if (ev.rules && rule === "anywhere" && !f.ruleChanged) {
        const e = evaluate({ kind: "rule", field, rule: "question" }, asked, RULE_TIES);
        if (e.fixes > 0) out.push(e);
      }
    }
    if (ev.rules && rule === "question" && !f.ruleChanged) {
      const drifted = f.items.filter((i) => cur[i] === "DRIFT");
      if (drifted.some((i) => items[i].human === "ASK")) {
        const e = evaluate({ kind: "rule", field, rule: "anywhere" }, drifted, RULE_TIES);
        if (e.fixes > 0) out.push(e);
      }
    }
    return out;
  };

  const uncheckedCache = new Map<string, number>();
  const suggestions: Suggestion[] = [];
  while (suggestions.length < limit) {
    let best: { field: string; pick: Ranked; addition: Candidate | null } | null = null;
    for (const [field, f] of fields) {
      f.additions ??= new AdditionIndex(
        ctx,
        f.items,
        ev.rule(field, draft) === "question",
        termsAdded(draft, field),
      );
      const c = f.additions.best(better);
      if (c && (!best || better(c, best.pick))) best = { field, pick: c, addition: c };
      f.reverse ??= buildReverse(field, f);
      for (const e of f.reverse) if (!best || better(e, best.pick)) best = { field, pick: e, addition: null };
    }
    if (best === null || best.pick.fixes - best.pick.breaks <= 0) break;
    if (options.unchecked) best = fewestUnchecked(best, fields, draft, options.unchecked, uncheckedCache);
    const { field, pick, addition } = best;
    const f = fields.get(field) as FieldState;
    const index = f.additions as AdditionIndex;
    let done: Evaluated;
    if (addition !== null) {
      if (addition.fixes < minFixes) {
        index.correct(addition, 0, 0);
        continue;
      }
      const exact = evaluate(
        { kind: "add", field, term: addition.term },
        index.mayMove(addition.term, lower),
        {
          inQuestion: addition.inQuestion,
          content: addition.content,
          words: addition.words,
        },
      );
      if (!enough(exact)) {
        // Too few fixes, or all from one trace: never proposed (it ranks below every fix).
        index.correct(addition, 0, 0);
        continue;
      }
      if (exact.fixes !== addition.fixes || exact.breaks !== addition.breaks) {
        // The index and the scorer disagree: the scorer's counts stand; rank again.
        options.onDisagreement?.({
          change: exact.change,
          index: [addition.fixes, addition.breaks],
          scorer: [exact.fixes, exact.breaks],
        });
        index.correct(addition, exact.fixes, exact.breaks);
        continue;
      }
      done = exact;
    } else {
      done = pick as Evaluated;
      if (!enough(done)) {
        f.reverse = (f.reverse ?? []).filter((e) => e !== done);
        continue;
      }
    }
    draft = [...draft, done.change];
    const anyState = fields.get(ANY);
    const touched = new Set<FieldState>([f]);
    for (const m of done.moves) {
      const was = cur[m.item];
      cur[m.item] = m.after;
      const own = fields.get(items[m.item].field) as FieldState;
      touched.add(own);
      if (anyState) touched.add(anyState);
      // It left DRIFT: it no longer counts for any other candidate of its field, nor of `*`.
      if (was === "DRIFT" && done.change.kind === "add") {
        own.additions?.leftDrift(m.item);
        if (anyState && anyState !== own) anyState.additions?.leftDrift(m.item);
      }
    }
    if (done.change.kind !== "add") {
      // A removal or a rule change changes which fields can move and where terms count: recount
      // the lists that hold a field it moved.
      if (done.change.kind === "rule") f.ruleChanged = true;
      for (const t of touched) t.additions = null;
    }
    for (const t of touched) t.reverse = null;
    suggestions.push(toSuggestion(done, items, ev));
  }
  return suggestions;
}

interface Pick_ {
  field: string;
  pick: Ranked;
  addition: Candidate | null;
}

/**
 * Of the candidates tied with `best` in net, the one that moves the fewest stored labels no human
 * checked; among equals, the first by `better`.
 */
function fewestUnchecked(
  best: Pick_,
  fields: ReadonlyMap<string, FieldState>,
  draft: readonly TermChange[],
  unchecked: (change: TermChange, draft: readonly TermChange[]) => number,
  cache: Map<string, number>,
): Pick_ {
  const net = best.pick.fixes - best.pick.breaks;
  const tied: Pick_[] = [];
  for (const [field, f] of fields) {
    for (const c of f.additions?.tied(net) ?? []) tied.push({ field, pick: c, addition: c });
    for (const e of f.reverse ?? [])
      if (e.fixes - e.breaks === net) tied.push({ field, pick: e, addition: null });
  }
  if (tied.length < 2) return best;
  tied.sort((a, b) => (better(a.pick, b.pick) ? -1 : better(b.pick, a.pick) ? 1 : 0));
  let out = best;
  let fewest = Number.POSITIVE_INFINITY;
  for (const t of tied.slice(0, MAX_TIED)) {
    const change: TermChange = t.addition
      ? { kind: "add", field: t.field, term: t.addition.term }
      : (t.pick as Evaluated).change;
    const key = `${draft.length}\u0000${describeChange(change)}`;
    let n = cache.get(key);
    if (n === undefined) {
      n = unchecked(change, draft);
      cache.set(key, n);
    }
    if (n < fewest) {
      fewest = n;
      out = t;
    }
  }
  return out;
}

function toSuggestion(e: Evaluated, items: readonly LabelledField[], ev: SuggestionEvaluator): Suggestion {
  const change = e.change;
  const sources: SourceSentence[] = [];
  for (const i of e.fixed) {
    if (sources.length >= MAX_SOURCES) break;
    sources.push(sourceOf(items[i], change, ev));
  }
  return {
    change,
    fixes: e.fixes,
    breaks: e.breaks,
    net: e.fixes - e.breaks,
    fixed: e.fixed.map((i) => items[i].key),
    broken: e.broken.map((i) => items[i].key),
    sources,
    inQuestion: e.inQuestion,
    traces: new Set(e.fixed.map((i) => traceOf(items[i]))).size,
    reviewed: e.broken.filter((i) => items[i].source === "review").map((i) => items[i].key),
  };
}

/** The sentence of a fixed field that holds the term (a question first), with the term marked. */
function sourceOf(item: LabelledField, change: TermChange, ev: SuggestionEvaluator): SourceSentence {
  const sentences = splitSentences(item.text);
  if (change.kind !== "rule") {
    const needle = change.term.toLowerCase().replace(/\*$/, "");
    let plain: SourceSentence | null = null;
    for (const s of sentences) {
      // As the term is matched: white space as the evaluator reads it; marks need a case-folding that keeps offsets.
      const shown = ev.prepare(s.text);
      const lower = shown.toLowerCase();
      if (lower.length !== shown.length) continue;
      for (let at = lower.indexOf(needle); at !== -1; at = lower.indexOf(needle, at + 1)) {
        if (change.kind === "add" && !ev.accepts(lower, at, at + needle.length)) continue;
        const found = { key: item.key, sentence: shown, mark: [at, at + needle.length] as [number, number] };
        if (questionSentences(s.text).length > 0) return found;
        plain ??= found;
        break;
      }
    }
    if (plain) return plain;
  }
  // A rule change: show a sentence that is no question holding one of the field's terms, marked.
  const terms = (ev.termsOf?.(item) ?? [])
    .map((t) => t.toLowerCase().replace(/\*$/, ""))
    .filter((t) => t !== "");
  for (const s of sentences) {
    if (questionSentences(s.text).length > 0) continue;
    const lower = s.text.toLowerCase();
    if (lower.length !== s.text.length) continue;
    for (const t of terms) {
      const at = lower.indexOf(t);
      if (at !== -1) return { key: item.key, sentence: s.text, mark: [at, at + t.length] };
    }
  }
  const plain = sentences.find((s) => questionSentences(s.text).length === 0) ?? sentences[0];
  return { key: item.key, sentence: plain?.text ?? item.text, mark: null };
}
