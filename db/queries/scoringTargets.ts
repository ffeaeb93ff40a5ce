/**
 * What scores a stored trace under a plan (the current configuration a re-score applies, or a
 * what-if's draft): the trace's own probe version gives the world; the plan gives the scoring
 * configuration and the lexicon. For each (probe, probe version, lexicon version) a trace was
 * scored with, it gives the probe as it scored (`from`), as it would score (`to`) and what can
 * move between them (lib/tuning/footprint.ts), each worked out once.
 */
import {
  applyConfiguration,
  configurationOf,
  type ProbeConfiguration,
} from "../../lib/fixtures/configuration";
import type { Lexicon } from "../../lib/lexicon/lexicon";
import { type CompiledProbe, compileProbe } from "../../lib/probe/compile";
import { probeDigest } from "../../lib/probe/digest";
import type { Probe } from "../../lib/probe/schema";
import { type Footprint, footprint } from "../../lib/tuning/footprint";
import type { Db } from "../client";
import { lexiconAt } from "./lexicon";
import { getProbe, getProbeVersion } from "./probes";

export interface ScoringPlan {
  lexicon: Lexicon;
  /** The configuration to score a probe's traces with; undefined: the probe's own (unchanged). */
  configuration(probeId: string): ProbeConfiguration | undefined;
}

export interface Target {
  probeId: string;
  fromVersion: number;
  from: CompiledProbe;
  /** The definition the plan scores with: the trace's world with the plan's configuration. */
  toProbe: Probe;
  to: CompiledProbe;
  /** null: the plan scores these traces exactly as they were scored. */
  footprint: Footprint | null;
}

/** The plan of a re-score: the current configuration of every probe and the current lexicon. */
export function currentPlan(db: Db, lexicon: Lexicon): ScoringPlan & { versions: Map<string, number> } {
  const versions = new Map<string, number>();
  const configs = new Map<string, ProbeConfiguration | undefined>();
  return {
    lexicon,
    versions,
    configuration(probeId) {
      if (!configs.has(probeId)) {
        const p = getProbe(db, probeId);
        if (p) versions.set(probeId, p.version);
        configs.set(probeId, p ? configurationOf(p.probe) : undefined);
      }
      return configs.get(probeId);
    },
  };
}

/** A re-score's stored plan: a lexicon version and each probe's version, whose configurations it applies. */
export interface StoredPlan {
  lexicon: number;
  probes: Record<string, number>;
}

/** The plan a stored one names (its versions read back); a string says what is missing. */
export function planOf(db: Db, stored: StoredPlan): ScoringPlan | string {
  const lexicon = lexiconAt(db, stored.lexicon);
  if (!lexicon) return `lexicon v${stored.lexicon} is not in the database`;
  const configs = new Map<string, ProbeConfiguration>();
  for (const [id, v] of Object.entries(stored.probes)) {
    const p = getProbeVersion(db, id, v);
    if (!p) return `probe ${id} v${v} is not in the database`;
    configs.set(id, configurationOf(p));
  }
  return { lexicon, configuration: (id) => configs.get(id) };
}

export class ScoringTargets {
  private readonly cache = new Map<string, Target | string>();

  constructor(
    private readonly db: Db,
    readonly plan: ScoringPlan,
  ) {}

  /** The target of traces scored with this probe version and lexicon version; a string says what is missing. */
  of(probeId: string, probeVersion: number, lexiconVersion: number): Target | string {
    const key = `${probeVersion}\u0000${lexiconVersion}\u0000${probeId}`;
    let hit = this.cache.get(key);
    if (hit === undefined) {
      hit = this.resolve(probeId, probeVersion, lexiconVersion);
      this.cache.set(key, hit);
    }
    return hit;
  }

  private resolve(probeId: string, probeVersion: number, lexiconVersion: number): Target | string {
    const probe = getProbeVersion(this.db, probeId, probeVersion);
    if (!probe) return `probe ${probeId} v${probeVersion} is not in the database`;
    const lexicon = lexiconAt(this.db, lexiconVersion);
    if (!lexicon) return `lexicon v${lexiconVersion} is not in the database`;
    const config = this.plan.configuration(probeId);
    const toProbe = config ? applyConfiguration(probe, config) : probe;
    const from = compileProbe(probe, lexicon);
    const to = compileProbe(probeDigest(toProbe) === probeDigest(probe) ? probe : toProbe, this.plan.lexicon);
    return {
      probeId,
      fromVersion: probeVersion,
      from,
      toProbe: to.probe,
      to,
      footprint: footprint(from, to),
    };
  }
}

/**
 * The stored version a target's definition is (inside the caller's write transaction): the same
 * definition as a stored version reuses it; another (the trace's older world with the current
 * configuration) is stored as a new version that is not made current (origin `rescore`).
 */
export function storedVersionOf(db: Db, t: Target): number {
  if (t.toProbe === t.from.probe) return t.fromVersion;
  const digest = probeDigest(t.toProbe);
  const hit = db.sqlite
    .prepare(
      "SELECT version FROM probe_versions WHERE probe_id = ? AND digest = ? ORDER BY version DESC LIMIT 1",
    )
    .pluck()
    .get(t.probeId, digest) as number | undefined;
  if (hit !== undefined) return hit;
  const next =
    ((db.sqlite
      .prepare("SELECT max(version) FROM probe_versions WHERE probe_id = ?")
      .pluck()
      .get(t.probeId) as number | null) ?? 0) + 1;
  db.sqlite
    .prepare(
      "INSERT INTO probe_versions(probe_id, version, definition, digest, origin) VALUES (?, ?, ?, ?, 'rescore')",
    )
    .run(t.probeId, next, JSON.stringify(t.toProbe), digest);
  return next;
}
