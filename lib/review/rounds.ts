/**
 * Blind rounds (DESIGN.md, "The review loop", "Blind rounds"), with no database: a field's state
 * from its reviews, its human label under that state, and the rules a round's claims follow.
 *
 * Reviews have a kind: `review` (ordinary), `blind` (made in a round without seeing the scorer's
 * label or other reviews) or `adjudication` (the settled label of a disputed field).
 * - Blind reviews form one chain per reviewer: two reviewers never conflict with each other.
 * - Each reviewer's first blind review with a label counts (for agreement and for the state); a
 *   later relabel is an ordinary review.
 * - A field with counted blind reviews is *single* (one reviewer), *agreed* (all the same label),
 *   *disputed* (they differ) or *adjudicated* (an adjudication with a label landed).
 * - Its human label is the adjudicated label, else the agreed one, else (single) that review; a
 *   disputed field has none (the imported label is no fallback). An ordinary review newer than
 *   the review that settled a single, agreed or adjudicated field replaces it, as outside rounds;
 *   only an adjudication settles a disputed one.
 * - A field without blind reviews or adjudications follows the ordinary rule: its newest review.
 */

export const REVIEW_KINDS = ["review", "blind", "adjudication"] as const;

/** How a fixture's expected label was settled: one review (or imported), two reviewers agreeing, an adjudication. */
export const SETTLED = ["single", "agreed", "adjudicated"] as const;
export type Settled = (typeof SETTLED)[number];

/** The `settled` of a fixture made from a field whose current review is in this state. */
export function settledOf(state: FieldState | "open" | undefined): Settled {
  return state === "agreed" || state === "adjudicated" ? state : "single";
}
export type ReviewKind = (typeof REVIEW_KINDS)[number];

export const FIELD_STATES = ["single", "agreed", "disputed", "adjudicated"] as const;
export type FieldState = (typeof FIELD_STATES)[number];

/** What the rules need of a stored review. */
export interface KindedReview {
  id: number;
  kind: ReviewKind;
  /** null: a clear. */
  label: string | null;
  reviewer: string;
}

/** Each reviewer's first blind review with a label (the one that counts), oldest first. */
export function countedBlind<T extends KindedReview>(reviews: readonly T[]): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const r of [...reviews].sort((a, b) => a.id - b.id)) {
    if (r.kind !== "blind" || r.label === null || seen.has(r.reviewer)) continue;
    seen.add(r.reviewer);
    out.push(r);
  }
  return out;
}

export interface FieldRound<T extends KindedReview> {
  /** undefined: no counted blind review and no adjudication (the ordinary rule applies). */
  state: FieldState | undefined;
  /** The review whose label is the field's human label (undefined: none, e.g. disputed). */
  current: T | undefined;
}

/**
 * A field's state and the review that carries its human label, from its reviews (any order; it
 * needs its blind and adjudication reviews and its newest review).
 */
export function fieldRound<T extends KindedReview>(reviews: readonly T[]): FieldRound<T> {
  const sorted = [...reviews].sort((a, b) => a.id - b.id);
  const newest = sorted[sorted.length - 1];
  const counted = countedBlind(sorted);
  let adjudication: T | undefined;
  for (const r of sorted) if (r.kind === "adjudication") adjudication = r;
  // A clear adjudication withdraws the settlement.
  if (adjudication?.label === null) adjudication = undefined;
  const after = (settling: T): T =>
    newest && newest.kind === "review" && newest.id > settling.id ? newest : settling;
  if (adjudication) return { state: "adjudicated", current: after(adjudication) };
  if (counted.length === 0) return { state: undefined, current: newest };
  if (counted.length === 1) {
    // Single: that reviewer's review, replaced by any newer one except a blind review of another
    // reviewer (which would make it agreed or disputed, handled above).
    return { state: "single", current: after(counted[0]) };
  }
  const first = counted[0].label;
  if (counted.every((r) => r.label === first))
    return { state: "agreed", current: after(counted[counted.length - 1]) };
  return { state: "disputed", current: undefined };
}

/** The state a round shows for a field from its counted labels and adjudication (no review: open). */
export function roundFieldState(
  labels: readonly (string | null)[],
  adjudicated: string | null | undefined,
): FieldState | "open" {
  if (adjudicated) return "adjudicated";
  const counted = labels.filter((l): l is string => l !== null);
  if (counted.length === 0) return "open";
  if (counted.length === 1) return "single";
  return counted.every((l) => l === counted[0]) ? "agreed" : "disputed";
}

/** Whether a fixture may be added from a field in this state by default (settled by two humans). */
export function isSettled(state: FieldState | "open" | undefined): state is "agreed" | "adjudicated" {
  return state === "agreed" || state === "adjudicated";
}

export const MIN_REVIEWS_PER_FIELD = 2;
export const MAX_REVIEWS_PER_FIELD = 10;
export const ROUND_SCOPES = ["run", "probe", "model"] as const;
export type RoundScope = (typeof ROUND_SCOPES)[number];

/** How long a claim holds a field for its reviewer before another may take it. */
export const LEASE_MS = 10 * 60 * 1000;

/** Whether a reviewer may take part in a round (null participants: anyone). */
export function mayTakePart(participants: readonly string[] | null, reviewer: string): boolean {
  return participants === null || participants.includes(reviewer);
}

/**
 * A field may be offered to a reviewer when fewer than N reviews and live leases hold it and the
 * reviewer has never been offered it.
 */
export function mayOffer(taken: number, n: number, offeredBefore: boolean): boolean {
  return !offeredBefore && taken < n;
}

/** A round's seed: a positive 30-bit integer (so the order's arithmetic stays exact in SQLite). */
export function roundSeed(random: () => number = Math.random): number {
  return 1 + Math.floor(random() * 0x3fff_fffe);
}

/**
 * The position of a trace in a round's order: a multiplicative permutation modulo a prime, keyed
 * by the seed (distinct traces never share a position; the same seed gives the same order). The
 * same expression is written in SQL by db/queries/rounds.ts (ORDER_SQL); a test holds them equal.
 */
export const ORDER_PRIME = 4_294_967_291;
export const ORDER_MULTIPLIER = 2_654_435_761;
export function orderKey(traceId: number, seed: number): number {
  return Number(((BigInt(traceId) + BigInt(seed)) * BigInt(ORDER_MULTIPLIER)) % BigInt(ORDER_PRIME));
}
