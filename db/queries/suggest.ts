/**
 * Suggestions from the human labels in a scope (DESIGN.md, "Suggestions"), on the one scorer:
 * the labelled fields of the scope (suggestInputs.ts), each scored as a re-score would score it
 * now (its trace's own world with its probe's current configuration and the current lexicon, as
 * db/queries/scoringTargets.ts plans it; a fixture's snapshot with the same), ranked by
 * lib/tuning/suggest.ts. Each suggestion then gets its what-if (db/queries/whatIf.ts) as a draft
 * of it and the ones above it: over every fixture and stored trace it touches, so it may show
 * more than the scope, but it never changes the ranking.
 */
import { configurationOf, EMPTY_CONFIGURATION, probeWith } from "../../lib/fixtures/configuration";
import type { WorldSnapshot } from "../../lib/fixtures/world";
import type { LexiconEntry } from "../../lib/lexicon/lexicon";
import type { Probe } from "../../lib/probe/schema";
import { type BoundSuggestion, bindSuggestion, type ScoredInput } from "../../lib/tuning/bind";
import type { SuggestionsJson, TuneDraft, TuningTarget } from "../../lib/tuning/contract";
import {
  DEFAULT_MIN_FIXES,
  DEFAULT_MIN_TRACES,
  DEFAULT_SUGGESTIONS,
  type Suggestion,
  suggestChanges,
} from "../../lib/tuning/suggest";
import type { TermChange } from "../../lib/tuning/types";
import type { WhatIfReport } from "../../lib/tuning/whatIf";
import type { Db } from "../client";
import { currentLexicon } from "./lexicon";
import { getProbe } from "./probes";
import { currentPlan, ScoringTargets } from "./scoringTargets";
import { ScopeError, type SuggestScope, suggestInputs } from "./suggestInputs";
import { whatIf } from "./whatIf";

export { ScopeError, type SuggestScope };

export interface SuggestRequest {
  scope: SuggestScope;
  /** How many suggestions to list (default DEFAULT_SUGGESTIONS). */
  limit?: number;
  /** Give each suggestion its what-if (default true). */
  whatIf?: boolean;
  /** Fixes a suggestion needs, and the different traces they come from (defaults 2 and 2). */
  minFixes?: number;
  minTraces?: number;
  /** false: no term goes to the lexicon's `*` entry (default: it may). */
  anyField?: boolean;
}

export interface SuggestionWithWhatIf extends Suggestion {
  /** The what-if of this suggestion with the ones above it, as one draft. */
  whatIf?: WhatIfReport;
}

export interface SuggestResult {
  /** Where the changes go: the shared lexicon, or one probe's own terms. */
  target: SuggestionsJson["target"];
  scope: SuggestScope;
  /** What the ranking counted, inside the scope only. */
  counted: {
    fields: number;
    /** Human ASK, ours DRIFT. */
    missedAsks: number;
    /** Ours ASK, human DRIFT. */
    wrongAsks: number;
    /** Fields that could not be scored now (their probe version is gone): left out. */
    missing: number;
  };
  /** What a suggestion needs: fixes, from different traces. */
  needs: { fixes: number; traces: number };
  suggestions: SuggestionWithWhatIf[];
  /** Milliseconds: reading and scoring the fields, ranking, the what-ifs. */
  ms: { read: number; rank: number; whatIf: number };
  bound: BoundSuggestion;
}

/** A draft of the first `n` suggestions, as the what-if and a save take it. */
export function draftOf(result: SuggestResult, n = result.suggestions.length): TuneDraft {
  return draftWith(
    result.bound,
    result.suggestions.slice(0, n).map((s) => s.change),
  );
}

/** A draft of the given changes on the bound target (the lexicon, or one probe's own terms). */
function draftWith(bound: BoundSuggestion, changes: TermChange[]): TuneDraft {
  const target = bound.target;
  if (target.kind === "lexicon") {
    const entries: Record<string, LexiconEntry> = { ...bound.lexiconWith(changes).entries };
    return { kind: "lexicon", entries };
  }
  const stored = target.probe;
  return {
    kind: "probe",
    probe: stored.id,
    configuration: { ...configurationOf(stored), ask_terms: bound.askTermsWith(changes) },
  };
}

/**
 * The stored labels of fields no human checked (no review, no imported label) that a draft moves,
 * as its what-if counts them: moved fields minus those with a human label. For tied suggestions
 * on the same draft the labels the draft before them moves are common to all, so the whole
 * draft's count orders them as the change's own would.
 */
export function uncheckedMoves(report: WhatIfReport): number {
  return report.traces.fields.reduce((n, f) => n + f.moved - f.agrees - f.disagrees, 0);
}

/**
 * The labelled fields of a scope, each with the probe that scores it now: a trace's own world with
 * its probe's current configuration (as a re-score plans it), a fixture's snapshot likewise.
 * Fields whose probe version is gone are counted in `missing` and left out.
 */
export function scoredInputs(db: Db, scope: SuggestScope): { inputs: ScoredInput[]; missing: number } {
  const lexicon = currentLexicon(db);
  const targets = new ScoringTargets(db, currentPlan(db, lexicon));
  const fixtureProbes = new Map<string, Probe>();
  const worlds = db.sqlite.prepare("SELECT world FROM fixture_worlds WHERE digest = ?").pluck();
  const inputs: ScoredInput[] = [];
  let missing = 0;
  for (const i of suggestInputs(db, scope)) {
    let probe: Probe | undefined;
    if (i.trace) {
      const t = targets.of(i.probeId, i.trace.probeVersion, i.trace.lexiconVersion);
      if (typeof t !== "string") probe = t.toProbe;
    } else if (i.fixture) {
      const digest = i.fixture.worldDigest;
      probe = fixtureProbes.get(digest);
      if (!probe) {
        const world = JSON.parse(worlds.get(digest) as string) as WorldSnapshot;
        // As a fixture re-run scores it: the snapshot's world with its probe's current configuration.
        const current = getProbe(db, world.id);
        probe = probeWith(world, current ? configurationOf(current.probe) : EMPTY_CONFIGURATION);
        fixtureProbes.set(digest, probe);
      }
    }
    if (!probe) {
      missing++;
      continue;
    }
    inputs.push({
      key: i.key,
      field: i.field,
      human: i.human,
      source: i.source,
      response: i.response,
      probe,
    });
  }
  return { inputs, missing };
}

export function suggestFor(db: Db, req: SuggestRequest): SuggestResult {
  const t0 = performance.now();
  const scope = req.scope;
  let probeTarget: Probe | undefined;
  if (scope.probe !== undefined) {
    probeTarget = getProbe(db, scope.probe)?.probe;
    if (!probeTarget) throw new ScopeError(`unknown probe: ${scope.probe}`);
  }
  const lexicon = currentLexicon(db);
  const { inputs, missing } = scoredInputs(db, scope);
  const target: TuningTarget<Probe> = probeTarget
    ? { kind: "probe", probe: probeTarget }
    : { kind: "lexicon" };
  const bound = bindSuggestion(inputs, lexicon, target);
  const t1 = performance.now();
  const needs = { fixes: req.minFixes ?? DEFAULT_MIN_FIXES, traces: req.minTraces ?? DEFAULT_MIN_TRACES };
  const suggestions: SuggestionWithWhatIf[] = suggestChanges(bound.fields, bound.evaluator, {
    limit: req.limit ?? DEFAULT_SUGGESTIONS,
    minFixes: needs.fixes,
    minTraces: needs.traces,
    anyField: req.anyField === false ? false : undefined,
    unchecked: (change, draft) => uncheckedMoves(whatIf(db, draftWith(bound, [...draft, change]))),
  });
  const t2 = performance.now();
  const result: SuggestResult = {
    target: probeTarget
      ? { kind: "probe", probe: probeTarget.id, version: getProbe(db, probeTarget.id)?.version ?? 0 }
      : { kind: "lexicon", version: lexicon.version },
    scope,
    counted: {
      fields: bound.fields.length,
      missedAsks: bound.fields.filter((f) => f.human === "ASK" && f.ours === "DRIFT").length,
      wrongAsks: bound.fields.filter((f) => f.human === "DRIFT" && f.ours === "ASK").length,
      missing,
    },
    needs,
    suggestions,
    ms: { read: Math.round(t1 - t0), rank: Math.round(t2 - t1), whatIf: 0 },
    bound,
  };
  if (req.whatIf !== false) {
    suggestions.forEach((s, k) => {
      s.whatIf = whatIf(db, draftOf(result, k + 1));
    });
  }
  result.ms.whatIf = Math.round(performance.now() - t2);
  return result;
}

/** The suggestions as JSON: what `assumeprobe suggest --json` prints and the dashboard shows. */
export function suggestionJson(r: SuggestResult): SuggestionsJson {
  return {
    target: r.target,
    scope: { runs: r.scope.runs, sets: r.scope.sets, probe: r.scope.probe ?? null },
    counted: r.counted,
    needs: r.needs,
    suggestions: r.suggestions.map((s, k) => ({
      rank: k + 1,
      change: s.change,
      fixes: s.fixes,
      breaks: s.breaks,
      net: s.net,
      in_question: s.inQuestion,
      traces: s.traces,
      fixed: s.fixed,
      broken: s.broken,
      reviewed: s.reviewed,
      sources: s.sources,
      what_if: s.whatIf ?? null,
    })),
    ms: r.ms,
  };
}
