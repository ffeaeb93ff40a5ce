import type { Label } from "../probe/schema";

/**
 * A what-if's figures (DESIGN.md, "Tuning the scorer"): what a draft would fix and break among
 * fixtures, and per field how stored labels would move, each move with example traces and how
 * many of the moved fields have a human label the move agrees or disagrees with. Pure; the
 * storage reads are db/queries/whatIf.ts.
 */

/** Trace ids kept per move, as examples to open. */
export const EXAMPLES = 5;
/** Fixture flips listed per set (all are counted). */
export const LISTED_FLIPS = 50;

export interface LabelMove {
  from: Label;
  to: Label;
  count: number;
  examples: number[];
  /** Moved fields whose human label (review, else imported) is the new label. */
  agrees: number;
  /** Moved fields with a human label other than the new one. */
  disagrees: number;
}

export interface FieldMoves {
  field: string;
  moved: number;
  agrees: number;
  disagrees: number;
  moves: LabelMove[];
}

/** An INJECT whose reasons move (a bait change): `invented` → `bait`, as reason lists. */
export interface ReasonMove {
  field: string;
  from: string;
  to: string;
  count: number;
  examples: number[];
}

export interface FixtureFlip {
  set: string;
  identity: string;
  probe: string;
  field: string;
  expected: Label;
  before: Label;
  after: Label;
}

export interface SetOutcome {
  set: string;
  /** The built-in, read-only seed set: a fixture broken there is a break. */
  seed: boolean;
  /** Fixtures of the set the draft can touch (scored under both). */
  touched: number;
  fixed: number;
  broken: number;
  /** The first flips, fixed then broken. */
  flips: FixtureFlip[];
}

/** How many guarded moves a what-if names. */
export const GUARD_EXAMPLES = 20;

/** A reviewed field a draft would move away from its review. */
export interface GuardedMove {
  trace: number;
  field: string;
  from: Label;
  to: Label;
  review: string;
}

export interface WhatIfReport {
  /** The draft's change in words. */
  change: string;
  /** The field names whose scoring the draft changes. */
  fields: string[];
  fixtures: { touched: number; fixed: number; broken: number; seedBroken: number; sets: SetOutcome[] };
  traces: {
    /** Traces read because the draft might move them. */
    read: number;
    /** Of those, scored again (the rest could not move). */
    scored: number;
    /** The draft can change every trace of the probe (a clarify tool change): all were read. */
    all: boolean;
    /** Traces whose probe or lexicon version is gone (not scored). */
    missing: number;
    moved: number;
    agrees: number;
    disagrees: number;
    /**
     * Fields whose label would move away from their current review (ours agreed with it before):
     * guarded, as a seed break is (lib/tuning/guard.ts).
     */
    reviewedAway: number;
    /** Fields that would move away from their imported label (no review): shown, not guarded. */
    importedAway: number;
    /** Some of the reviewed fields it moves away (at most GUARD_EXAMPLES). */
    reviewed: GuardedMove[];
    fields: FieldMoves[];
    reasons: ReasonMove[];
  };
  ms: number;
}

/** Gathers label and reason moves trace by trace. */
export class MoveTally {
  private readonly byField = new Map<string, Map<string, LabelMove>>();
  private readonly reasonMoves = new Map<string, ReasonMove>();

  /** One field's label moved; `human` is its current human label, if any. */
  label(traceId: number, field: string, from: Label, to: Label, human: string | undefined): void {
    let moves = this.byField.get(field);
    if (!moves) {
      moves = new Map();
      this.byField.set(field, moves);
    }
    const key = `${from}>${to}`;
    let m = moves.get(key);
    if (!m) {
      m = { from, to, count: 0, examples: [], agrees: 0, disagrees: 0 };
      moves.set(key, m);
    }
    m.count++;
    if (m.examples.length < EXAMPLES) m.examples.push(traceId);
    if (human !== undefined) {
      if (human === to) m.agrees++;
      else m.disagrees++;
    }
  }

  reasons(traceId: number, field: string, from: readonly string[], to: readonly string[]): void {
    const key = `${field}\u0000${from.join(",")}\u0000${to.join(",")}`;
    let m = this.reasonMoves.get(key);
    if (!m) {
      m = { field, from: from.join(", "), to: to.join(", "), count: 0, examples: [] };
      this.reasonMoves.set(key, m);
    }
    m.count++;
    if (m.examples.length < EXAMPLES) m.examples.push(traceId);
  }

  /** Fields in name order, moves largest first. */
  fields(): FieldMoves[] {
    return [...this.byField.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([field, moves]) => {
        const list = [...moves.values()].sort((a, b) => b.count - a.count);
        return {
          field,
          moved: list.reduce((n, m) => n + m.count, 0),
          agrees: list.reduce((n, m) => n + m.agrees, 0),
          disagrees: list.reduce((n, m) => n + m.disagrees, 0),
          moves: list,
        };
      });
  }

  reasonList(): ReasonMove[] {
    return [...this.reasonMoves.values()].sort((a, b) => b.count - a.count);
  }
}

/** Per set, fixed and broken fixtures (fixed: failed, now passes; broken: passed, now fails). */
export class FlipTally {
  private readonly sets = new Map<string, SetOutcome>();

  add(setName: string, seed: boolean, flip: FixtureFlip): void {
    let s = this.sets.get(setName);
    if (!s) {
      s = { set: setName, seed, touched: 0, fixed: 0, broken: 0, flips: [] };
      this.sets.set(setName, s);
    }
    s.touched++;
    const passedBefore = flip.before === flip.expected;
    const passesAfter = flip.after === flip.expected;
    if (passedBefore === passesAfter) return;
    if (passesAfter) s.fixed++;
    else s.broken++;
    if (s.flips.length < LISTED_FLIPS) s.flips.push(flip);
  }

  /** The seed first, then by name; each set's flips fixed first. */
  outcomes(): SetOutcome[] {
    return [...this.sets.values()]
      .sort((a, b) => Number(b.seed) - Number(a.seed) || (a.set < b.set ? -1 : a.set > b.set ? 1 : 0))
      .map((s) => ({
        ...s,
        flips: [...s.flips].sort((a, b) => Number(b.after === b.expected) - Number(a.after === a.expected)),
      }));
  }
}
