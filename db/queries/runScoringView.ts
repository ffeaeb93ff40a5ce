/**
 * What the run page says about the configuration that scored a run: per probe, the probe and
 * lexicon versions, and whether the current configuration would score its traces otherwise (a
 * newer version that changes something this run's traces can show, not merely a newer number).
 */

import {
  configurationOf,
  describeConfigurationChange,
  diffConfiguration,
} from "../../lib/fixtures/configuration";
import { ANY_FIELD_ENTRY, describeEntryChanges, diffEntries } from "../../lib/lexicon/lexicon";
import type { Db } from "../client";
import { currentLexicon, lexiconAt } from "./lexicon";
import { getProbe, getProbeVersion } from "./probes";
import { runScoring } from "./runScoring";
import { currentPlan, ScoringTargets } from "./scoringTargets";
import { type RunRef, runsOfProbe } from "./tuneRuns";

export interface ProbeScoringView {
  probe: string;
  probeVersion: number;
  lexiconVersion: number;
  currentProbeVersion: number | null;
  /** What the current configuration changes for these traces, in words; null when nothing. */
  newer: string | null;
}

export interface RunScoringView {
  probes: ProbeScoringView[];
  currentLexicon: number;
  /** Some probe's traces would score otherwise now: a re-score would change something. */
  stale: boolean;
}

export function runScoringView(db: Db, runId: number): RunScoringView {
  const lexicon = currentLexicon(db);
  const targets = new ScoringTargets(db, currentPlan(db, lexicon));
  const probes = runScoring(db, runId).map((s): ProbeScoringView => {
    const current = getProbe(db, s.probeId);
    const t = targets.of(s.probeId, s.probeVersion, s.lexiconVersion);
    let newer: string | null = null;
    if (typeof t !== "string" && t.footprint !== null) {
      const parts: string[] = [];
      const before = getProbeVersion(db, s.probeId, s.probeVersion);
      if (current && before && current.version !== s.probeVersion) {
        const c = describeConfigurationChange(
          diffConfiguration(configurationOf(before), configurationOf(current.probe)),
        );
        if (c !== "no change") parts.push(`${s.probeId} v${current.version}: ${c}`);
      }
      if (lexicon.version !== s.lexiconVersion) {
        const fields = new Set(t.from.fields);
        const changes = diffEntries(lexiconAt(db, s.lexiconVersion)?.entries ?? {}, lexicon.entries).filter(
          (c) => fields.has(c.field) || c.field === ANY_FIELD_ENTRY,
        );
        if (changes.length) parts.push(`lexicon v${lexicon.version}: ${describeEntryChanges(changes)}`);
      }
      newer = parts.join("; ") || "a newer configuration";
    }
    return {
      probe: s.probeId,
      probeVersion: s.probeVersion,
      lexiconVersion: s.lexiconVersion,
      currentProbeVersion: current?.version ?? null,
      newer,
    };
  });
  return { probes, currentLexicon: lexicon.version, stale: probes.some((p) => p.newer !== null) };
}

/**
 * Runs a re-score with the current configuration would change (of one probe, when given), oldest
 * first. One plan and one cache of targets serve every run: a target (two compiled probes and
 * what can move between them) is worked out once per probe version and lexicon version, not once
 * per run, so the pages that list stale runs stay fast with many runs and a large lexicon.
 */
export function staleRuns(db: Db, probe?: string): RunRef[] {
  const runs = probe
    ? runsOfProbe(db, probe)
    : (db.sqlite.prepare("SELECT id, name, trace_count AS traces FROM runs ORDER BY id").all() as RunRef[]);
  const targets = new ScoringTargets(db, currentPlan(db, currentLexicon(db)));
  return runs.filter((r) =>
    runScoring(db, r.id).some((s) => {
      if (probe && s.probeId !== probe) return false;
      const t = targets.of(s.probeId, s.probeVersion, s.lexiconVersion);
      return typeof t !== "string" && t.footprint !== null;
    }),
  );
}
