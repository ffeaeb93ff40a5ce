/**
 * Agreement between reviewers for a scope (run, model, probe or probes, field, round): the label
 * patterns of the fields two reviewers or more labelled blind, summed from the kept counts
 * (`blind_pattern_counts`, which triggers on `reviews` keep: 0018_agreement_index.sql), so the
 * read costs the same at a million fields as at ten: a range of at most a few thousand rows, one
 * per run, probe, field, round and distinct pattern. lib/review/interRater.ts turns them into
 * kappa, alpha and their intervals.
 */
import {
  type BootstrapOptions,
  type InterRater,
  interRater,
  type ReviewPattern,
} from "../../lib/review/interRater";
import type { Db } from "../client";

export interface InterRaterScope {
  run?: string;
  model?: string;
  probe?: string;
  /** Probes of a group (the page's group filter); ignored when `probe` is given. */
  probes?: readonly string[];
  field?: string;
  /** A round by name. */
  round?: string;
}

/** The label patterns of the scope's fields with two blind labels or more, and how many fields have each. */
export function blindPatterns(db: Db, scope: InterRaterScope = {}): ReviewPattern[] {
  const cond = ["c.n > 0"];
  const args: (string | number)[] = [];
  if (scope.run !== undefined) {
    cond.push("r.name = ?");
    args.push(scope.run);
  }
  if (scope.model !== undefined) {
    cond.push("r.model = ?");
    args.push(scope.model);
  }
  if (scope.probe !== undefined) {
    cond.push("c.probe_id = ?");
    args.push(scope.probe);
  } else if (scope.probes !== undefined) {
    cond.push(`c.probe_id IN (SELECT value FROM json_each(?))`);
    args.push(JSON.stringify(scope.probes));
  }
  if (scope.field !== undefined) {
    cond.push("c.field = ?");
    args.push(scope.field);
  }
  if (scope.round !== undefined) {
    cond.push("c.round_id = (SELECT id FROM review_rounds WHERE name = ?)");
    args.push(scope.round);
  }
  const join = scope.run !== undefined || scope.model !== undefined ? "JOIN runs r ON r.id = c.run_id" : "";
  const rows = db.sqlite
    .prepare(
      `SELECT c.pattern AS pattern, sum(c.n) AS n FROM blind_pattern_counts c ${join}
       WHERE ${cond.join(" AND ")} GROUP BY c.pattern ORDER BY c.pattern`,
    )
    .all(...args) as { pattern: string; n: number }[];
  return rows.map((r) => ({
    reviews: (JSON.parse(r.pattern) as [string, string][]).map(([reviewer, label]) => ({ reviewer, label })),
    n: r.n,
  }));
}

/** How many blind reviews exist at all (the page's and the command's empty state: none yet). */
export function hasBlindReviews(db: Db): boolean {
  return db.sqlite.prepare("SELECT 1 FROM reviews WHERE kind = 'blind' LIMIT 1").get() !== undefined;
}

/** Rounds by name, newest first, for the scope filter. */
export function roundNames(db: Db): string[] {
  return db.sqlite.prepare("SELECT name FROM review_rounds ORDER BY id DESC").pluck().all() as string[];
}

// The figures depend only on the patterns (and the bootstrap's options): the last few are kept,
// so a page reloaded without a new blind review does not resample again.
const kept = new Map<string, InterRater>();
const KEEP = 16;

/** Agreement between reviewers over the scope. */
export function interRaterOf(
  db: Db,
  scope: InterRaterScope = {},
  options: BootstrapOptions = {},
): InterRater {
  const patterns = blindPatterns(db, scope);
  const key = JSON.stringify([options.replicates ?? null, options.seed ?? null, patterns]);
  const hit = kept.get(key);
  if (hit) {
    kept.delete(key);
    kept.set(key, hit);
    return hit;
  }
  const figures = interRater(patterns, options);
  kept.set(key, figures);
  if (kept.size > KEEP) kept.delete(kept.keys().next().value as string);
  return figures;
}
