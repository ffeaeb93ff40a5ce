import type { WhatIfReport } from "./whatIf";

/**
 * What saving a draft needs the person to confirm (DESIGN.md, "Tuning the scorer"): the seed
 * fixtures it breaks, the fixtures of other sets it moves away from their expected label, and the
 * stored fields it moves away from their current review. Moves against imported labels are shown,
 * not guarded. Every save asks this one rule (the tuning pages' save, `lexicon edit`, `probes
 * edit`, `suggest --apply`), and the what-if shows what it counts; a new guard is added here and
 * to what the what-if reports.
 */
export interface SaveGuard {
  /** Seed fixtures that pass now and would fail. */
  seedBroken: number;
  /** Fixtures of other sets that pass now and would fail (moved away from their expected label). */
  fixturesBroken: number;
  /** Stored fields whose label agrees with their current review now and would not. */
  reviewedAway: number;
}

/** The guard of a draft, from its what-if. */
export function guardOf(r: WhatIfReport): SaveGuard {
  return {
    seedBroken: r.fixtures.seedBroken,
    fixturesBroken: r.fixtures.broken - r.fixtures.seedBroken,
    reviewedAway: r.traces.reviewedAway ?? 0,
  };
}

/** Whether saving needs an explicit confirmation (`--allow-break`, the page's confirm dialog). */
export function needsConfirmation(g: SaveGuard): boolean {
  return g.seedBroken > 0 || g.fixturesBroken > 0 || g.reviewedAway > 0;
}

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * What the confirmation is asked for, in words: each kind that holds ("1 fixture of the seed
 * set, 2 fixtures away from their expected label, 3 reviewed fields away from their review").
 */
export function guardWords(g: SaveGuard): string {
  const parts: string[] = [];
  if (g.seedBroken > 0 || (g.fixturesBroken === 0 && g.reviewedAway === 0))
    parts.push(`${count(g.seedBroken, "fixture")} of the seed set`);
  if (g.fixturesBroken > 0)
    parts.push(`${count(g.fixturesBroken, "fixture")} away from their expected label`);
  if (g.reviewedAway > 0) parts.push(`${count(g.reviewedAway, "reviewed field")} away from their review`);
  return parts.join(", ");
}
