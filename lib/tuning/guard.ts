import type { WhatIfReport } from "./whatIf";

/**
 * What saving a draft needs the person to confirm (DESIGN.md, "Tuning the scorer"): the seed
 * fixtures it breaks. Every save asks this one rule (the tuning pages' save, `lexicon edit`,
 * `probes edit`, `suggest --apply`), and the what-if shows what it counts; a new guard is added
 * here and to what the what-if reports.
 */
export interface SaveGuard {
  /** Seed fixtures that pass now and would fail. */
  seedBroken: number;
}

/** The guard of a draft, from its what-if. */
export function guardOf(r: WhatIfReport): SaveGuard {
  return { seedBroken: r.fixtures.seedBroken };
}

/** Whether saving needs an explicit confirmation (`--allow-break`, the page's confirm dialog). */
export function needsConfirmation(g: SaveGuard): boolean {
  return g.seedBroken > 0;
}

/** What the confirmation is asked for, in words ("1 fixture(s) of the seed set"). */
export function guardWords(g: SaveGuard): string {
  return `${g.seedBroken} fixture(s) of the seed set`;
}
