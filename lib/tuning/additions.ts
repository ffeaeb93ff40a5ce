import { type TermFinder, termFinder } from "../lexicon/termFinder";
import type { Label } from "../probe/schema";
import { candidateGrams, type TextSentences, wordCount } from "./grams";
import { isContentTerm } from "./stopWords";
import type { LabelledField } from "./types";

/**
 * The candidate additions of one field (one lexicon key, or one probe field) and their counts:
 * each term from the question sentences of the field's misses (human ASK, ours DRIFT), with how
 * many of the field's DRIFT fields it would turn to ASK by human label (ASK: a fix; any other: a
 * break). Counts are kept as fields leave DRIFT, by reading just those fields again, so no list
 * of fields per term is held: a hundred thousand terms cost their counts and one automaton.
 */

export interface Candidate {
  term: string;
  fixes: number;
  breaks: number;
  inQuestion: boolean;
  content: boolean;
  words: number;
}

export interface AdditionContext {
  items: readonly LabelledField[];
  /** Our label of each item under the draft so far. */
  cur: readonly Label[];
  sentences(i: number): TextSentences;
  /** The texts an added term is matched in, prepared: the reply, or its question sentences. */
  scanTexts(i: number, question: boolean): string[];
  accepts(prepared: string, start: number, end: number): boolean;
}

export class AdditionIndex {
  readonly candidates: Candidate[] = [];
  private readonly finder: TermFinder | null = null;
  private cachedBest: number | null | undefined;
  private seen = new Int32Array(0);
  private pass = 0;

  constructor(
    private readonly ctx: AdditionContext,
    private readonly fieldItems: readonly number[],
    private readonly question: boolean,
    /** Terms already added to this field by the draft. */
    skip: ReadonlySet<string>,
  ) {
    const grams = new Map<string, boolean>();
    for (const i of fieldItems) {
      if (ctx.items[i].human !== "ASK" || ctx.cur[i] !== "DRIFT") continue;
      for (const g of candidateGrams(ctx.sentences(i))) {
        if (!skip.has(g.term)) grams.set(g.term, grams.get(g.term) === true || g.inQuestion);
      }
    }
    if (grams.size === 0) return;
    const terms = [...grams.keys()];
    this.finder = termFinder(terms);
    for (const term of terms) {
      this.candidates.push({
        term,
        fixes: 0,
        breaks: 0,
        inQuestion: grams.get(term) === true,
        content: isContentTerm(term),
        words: wordCount(term),
      });
    }
    this.seen = new Int32Array(terms.length);
    for (const i of fieldItems) if (ctx.cur[i] === "DRIFT") this.count(i, 1);
  }

  /** Adds (+1) or takes back (-1) one DRIFT field's occurrences, each term once. */
  private count(i: number, sign: 1 | -1): void {
    if (!this.finder) return;
    // A term counts once per field: `seen` holds the pass that last counted it (no set per field).
    const pass = ++this.pass;
    const seen = this.seen;
    const candidates = this.candidates;
    const ask = this.ctx.items[i].human === "ASK";
    const accepts = this.ctx.accepts;
    for (const text of this.ctx.scanTexts(i, this.question)) {
      this.finder.scan(text, (id, start, end) => {
        if (seen[id] === pass || !accepts(text, start, end)) return;
        seen[id] = pass;
        const c = candidates[id];
        if (ask) c.fixes += sign;
        else c.breaks += sign;
        this.cachedBest = undefined;
      });
    }
  }

  /** A field left DRIFT (an addition took it): it no longer counts for any term. */
  leftDrift(i: number): void {
    this.count(i, -1);
  }

  /** The candidate ranked first by `better`, or null when none fixes anything. */
  best(better: (a: Candidate, b: Candidate) => boolean): Candidate | null {
    if (this.cachedBest === undefined) {
      let top: number | null = null;
      for (let id = 0; id < this.candidates.length; id++) {
        const c = this.candidates[id];
        if (c.fixes > 0 && (top === null || better(c, this.candidates[top]))) top = id;
      }
      this.cachedBest = top;
    }
    return this.cachedBest === null ? null : this.candidates[this.cachedBest];
  }

  /** The candidates that fix something with the given net (fixes minus breaks). */
  tied(net: number): Candidate[] {
    return this.candidates.filter((c) => c.fixes > 0 && c.fixes - c.breaks === net);
  }

  /** The field's DRIFT fields whose text holds the term anywhere: those the scorer may move. */
  mayMove(term: string, lower: (i: number) => string): number[] {
    return this.fieldItems.filter(
      (i) => this.ctx.cur[i] === "DRIFT" && lower(i).includes(term.split(" ")[0]),
    );
  }

  /** Sets a candidate's counts to the scorer's (should the two ever differ). */
  correct(c: Candidate, fixes: number, breaks: number): void {
    c.fixes = fixes;
    c.breaks = breaks;
    this.cachedBest = undefined;
  }
}
