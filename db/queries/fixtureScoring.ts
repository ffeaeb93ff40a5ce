/**
 * What scores fixtures now: each world snapshot (parsed once) with its probe's current stored
 * configuration and the current lexicon, one compiled scorer per world (lib/fixtures/score.ts),
 * and the versions that make up the scorer version. One context per re-run, page or export; a
 * what-if makes one with a draft (a lexicon, or a configuration for some probes).
 */
import {
  configurationOf,
  EMPTY_CONFIGURATION,
  type ProbeConfiguration,
  type ScorerVersionParts,
  scorerVersion,
} from "../../lib/fixtures/configuration";
import { compiledFixtureScorer, compileFixtureProbe, type FixtureScore } from "../../lib/fixtures/score";
import type { WorldSnapshot } from "../../lib/fixtures/world";
import type { Lexicon } from "../../lib/lexicon/lexicon";
import { packageVersion } from "../../lib/packageVersion";
import type { CompiledProbe } from "../../lib/probe/compile";
import type { NormalizedResponse } from "../../lib/probe/response";
import type { Db } from "../client";
import { currentLexicon } from "./lexicon";
import { getProbe } from "./probes";

/** A draft to score under instead of what is stored: a lexicon, and configurations by probe id. */
export interface ScoringDraft {
  lexicon?: Lexicon;
  configurations?: ReadonlyMap<string, ProbeConfiguration>;
}

export interface ProbeNow {
  config: ProbeConfiguration;
  /** The probe's current version; null when the probe is not in the database (it scores with no terms). */
  version: number | null;
}

export class FixtureScoring {
  private readonly worlds = new Map<string, WorldSnapshot>();
  private readonly probes = new Map<string, ProbeNow>();
  private readonly scorers = new Map<string, (r: NormalizedResponse, field: string) => FixtureScore>();
  private readonly compiledProbes = new Map<string, CompiledProbe>();
  private readonly worldStmt;
  /** The lexicon every fixture scores with. */
  readonly lexicon: Lexicon;

  constructor(
    private readonly db: Db,
    private readonly draft: ScoringDraft = {},
  ) {
    this.worldStmt = db.sqlite.prepare("SELECT world FROM fixture_worlds WHERE digest = ?").pluck();
    this.lexicon = draft.lexicon ?? currentLexicon(db);
  }

  world(digest: string): WorldSnapshot {
    let w = this.worlds.get(digest);
    if (!w) {
      const text = this.worldStmt.get(digest) as string | undefined;
      if (text === undefined) throw new Error(`fixture world ${digest} is missing`);
      w = JSON.parse(text) as WorldSnapshot;
      this.worlds.set(digest, w);
    }
    return w;
  }

  probe(id: string): ProbeNow {
    let p = this.probes.get(id);
    if (!p) {
      const stored = getProbe(this.db, id);
      const drafted = this.draft.configurations?.get(id);
      p = stored
        ? { config: drafted ?? configurationOf(stored.probe), version: stored.version }
        : { config: drafted ?? EMPTY_CONFIGURATION, version: null };
      this.probes.set(id, p);
    }
    return p;
  }

  /** One world's probe under its probe's current configuration and the lexicon, compiled once. */
  compiled(digest: string): CompiledProbe {
    let p = this.compiledProbes.get(digest);
    if (!p) {
      const world = this.world(digest);
      p = compileFixtureProbe(world, this.probe(world.id).config, this.lexicon);
      this.compiledProbes.set(digest, p);
    }
    return p;
  }

  /** The scorer of one world under its probe's current configuration. */
  scorer(digest: string): (response: NormalizedResponse, field: string) => FixtureScore {
    let s = this.scorers.get(digest);
    if (!s) {
      s = compiledFixtureScorer(this.compiled(digest));
      this.scorers.set(digest, s);
    }
    return s;
  }

  /** The versions of the probes looked up so far (a probe not in the database counts as version 0). */
  versions(): ScorerVersionParts {
    const probes: Record<string, number> = {};
    for (const [id, p] of this.probes) probes[id] = p.version ?? 0;
    return { package: packageVersion(), probes, lexicon: this.lexicon.version };
  }

  scorerVersion(): string {
    return scorerVersion(this.versions());
  }
}
