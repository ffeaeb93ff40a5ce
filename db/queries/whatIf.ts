import { UserError } from "../../lib/errors";
/**
 * The what-if of a draft (DESIGN.md, "Tuning the scorer"): before a change to the lexicon or to a
 * probe's configuration is saved, it is applied to every fixture it touches and to every stored
 * trace it can move, and nothing is written. Traces are found by what the draft can change
 * (lib/tuning/footprint.ts): an ask change reads only the ASK and DRIFT fields of the field names it
 * changes (their tag rows), and of those scores only the responses that hold a changed term; a
 * bait change reads only INJECT and COPY fields; a clarify tool change reads the probe's traces.
 * Each candidate is scored as a re-score would score it: its own world, the plan's configuration
 * (the draft's, else the probe's current one) and lexicon.
 */

import {
  applyConfiguration,
  configurationOf,
  describeConfigurationChange,
  diffConfiguration,
  normalizeConfiguration,
} from "../../lib/fixtures/configuration";
import { tag } from "../../lib/ingest/tags";
import { draftLexicon } from "../../lib/lexicon/draft";
import { ANY_FIELD_ENTRY, describeEntryChanges, diffEntries } from "../../lib/lexicon/lexicon";
import { askTermsFor, probedFields } from "../../lib/probe/compile";
import type { NormalizedResponse } from "../../lib/probe/response";
import type { Label } from "../../lib/probe/schema";
import { scoreTrace, type TraceScore } from "../../lib/probe/score";
import { humanLabel } from "../../lib/review/humanLabel";
import type { TuneDraft } from "../../lib/tuning/contract";
import { labelMayMove, mayChange } from "../../lib/tuning/footprint";
import { guardOf, type SaveGuard } from "../../lib/tuning/guard";
import {
  FlipTally,
  GUARD_EXAMPLES,
  type GuardedMove,
  MoveTally,
  type WhatIfReport,
} from "../../lib/tuning/whatIf";
import type { Db } from "../client";
import { FixtureScoring, type ScoringDraft } from "./fixtureScoring";
import { currentLexicon } from "./lexicon";
import { getProbe } from "./probes";
import { currentReviewLabelsOf } from "./reviews";
import { currentPlan, ScoringTargets } from "./scoringTargets";
import { findTagId } from "./tags";

export class WhatIfError extends UserError<"what_if"> {
  constructor(message: string) {
    super("what_if", message);
  }
}

/** Candidate traces per read. */
const CHUNK = 500;

interface Scope {
  /** Field names whose ask test the draft changes. */
  askFields: string[];
  /** Per such field, the labels it can move from: DRIFT when something may now ask, ASK when it may no longer. */
  moveFrom: Map<string, ("ASK" | "DRIFT")[]>;
  bait: boolean;
  /** A clarify tool change: every trace of the probe. */
  all: boolean;
  /** Only traces of this probe (a probe draft). */
  probe: string | null;
  change: string;
  scoring: ScoringDraft;
  targets: ScoringTargets;
}

function scopeOf(db: Db, draft: TuneDraft): Scope {
  if (draft.kind === "lexicon") {
    const lexicon = draftLexicon(draft.entries);
    const changes = diffEntries(currentLexicon(db).entries, lexicon.entries);
    const moveFrom = new Map<string, ("ASK" | "DRIFT")[]>();
    for (const c of changes) {
      const from = new Set<"ASK" | "DRIFT">();
      if (c.added.length) from.add("DRIFT");
      if (c.removed.length) from.add("ASK");
      if (c.rule) from.add(c.rule[1] === "question" ? "ASK" : "DRIFT");
      moveFrom.set(c.field, [...from]);
    }
    return {
      askFields: changes.map((c) => c.field),
      moveFrom,
      bait: false,
      all: false,
      probe: null,
      change: describeEntryChanges(changes),
      scoring: { lexicon },
      targets: new ScoringTargets(db, currentPlan(db, lexicon)),
    };
  }
  const stored = getProbe(db, draft.probe);
  if (!stored) throw new WhatIfError(`unknown probe "${draft.probe}"`);
  const configuration = normalizeConfiguration(draft.configuration);
  const change = diffConfiguration(configurationOf(stored.probe), configuration);
  const lexicon = currentLexicon(db);
  const plan = currentPlan(db, lexicon);
  // The probe's terms as the scorer reads them (the field-name fallback included) before and after.
  const drafted = applyConfiguration(stored.probe, configuration);
  const moveFrom = new Map<string, ("ASK" | "DRIFT")[]>();
  for (const c of change.askTerms) {
    const had = new Set(askTermsFor(stored.probe, c.field));
    const has = new Set(askTermsFor(drafted, c.field));
    const from: ("ASK" | "DRIFT")[] = [];
    if ([...has].some((t) => !had.has(t))) from.push("DRIFT");
    if ([...had].some((t) => !has.has(t))) from.push("ASK");
    moveFrom.set(c.field, from);
  }
  return {
    askFields: change.askTerms.map((c) => c.field),
    moveFrom,
    bait: change.baitAdded.length > 0 || change.baitRemoved.length > 0,
    all: change.clarifyTool !== undefined,
    probe: draft.probe,
    change: describeConfigurationChange(change),
    scoring: { configurations: new Map([[draft.probe, configuration]]) },
    targets: new ScoringTargets(db, {
      lexicon,
      configuration: (id) => (id === draft.probe ? configuration : plan.configuration(id)),
    }),
  };
}

/** The ids of traces carrying any of these tags (in the runs that have them, for the probe when given). */
function tracesTagged(db: Db, tagNames: string[], probe: string | null): number[] {
  const runsOf = db.sqlite
    .prepare(
      probe === null
        ? "SELECT DISTINCT run_id FROM run_counts WHERE tag_id = ? AND n > 0"
        : "SELECT run_id FROM run_counts WHERE tag_id = ? AND probe_id = ? AND n > 0",
    )
    .pluck();
  const rows = db.sqlite.prepare("SELECT trace_id FROM trace_tags WHERE run_id = ? AND tag_id = ?").pluck();
  const out = new Set<number>();
  for (const name of tagNames) {
    const id = findTagId(db, name);
    if (id === undefined) continue;
    const runs = (probe === null ? runsOf.all(id) : runsOf.all(id, probe)) as number[];
    for (const run of runs) for (const t of rows.iterate(run, id) as Iterable<number>) out.add(t);
  }
  return [...out].sort((a, b) => a - b);
}

/** The tags whose traces the draft can move. */
function candidateTags(db: Db, s: Scope): string[] {
  if (s.all && s.probe !== null) return [tag.probe(s.probe)];
  const names: string[] = [];
  for (const f of s.askFields)
    for (const l of s.moveFrom.get(f) ?? ["ASK", "DRIFT"]) names.push(tag.label(f, l));
  if (s.bait && s.probe !== null) {
    const probe = getProbe(db, s.probe);
    for (const f of probe ? probedFields(probe.probe) : [])
      for (const l of ["INJECT", "COPY"]) names.push(tag.label(f, l), tag.sideEffect(f, l));
  }
  return names;
}

interface Row {
  id: number;
  probeId: string;
  probeVersion: number;
  lexiconVersion: number;
  labels: string;
  response: string;
  result: string | null;
  human: string | null;
}

const parseOr = <T>(s: string | null): T | undefined => (s === null ? undefined : (JSON.parse(s) as T));

export interface WhatIfOptions {
  /** Only the fixtures of these sets (default: every set). */
  sets?: readonly string[];
  /** Leave stored traces out (a save's check of the seed needs fixtures only). */
  fixturesOnly?: boolean;
}

/** Applies a draft to fixtures and stored traces, saving nothing. Throws WhatIfError or LexiconError. */
export function whatIf(db: Db, draft: TuneDraft, o: WhatIfOptions = {}): WhatIfReport {
  const t0 = performance.now();
  const s = scopeOf(db, draft);
  const fixtures = fixtureWhatIf(db, s, o.sets);
  const moves = new MoveTally();
  const traces = {
    read: 0,
    scored: 0,
    all: s.all,
    missing: 0,
    moved: 0,
    agrees: 0,
    disagrees: 0,
    reviewedAway: 0,
    importedAway: 0,
  };
  const reviewed: GuardedMove[] = [];
  const ids = o.fixturesOnly ? [] : tracesTagged(db, candidateTags(db, s), s.probe);
  const read = db.sqlite.prepare(
    `SELECT id, probe_id AS probeId, probe_version AS probeVersion, lexicon_version AS lexiconVersion, labels,
       response, ${s.bait ? "result" : "NULL AS result"}, human
     FROM traces WHERE id IN (SELECT value FROM json_each(?))`,
  );
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = read.all(JSON.stringify(ids.slice(i, i + CHUNK))) as Row[];
    const moved: { row: Row; field: string; from: Label; to: Label }[] = [];
    for (const row of rows) {
      if (s.probe !== null && row.probeId !== s.probe) continue;
      traces.read++;
      const target = s.targets.of(row.probeId, row.probeVersion, row.lexiconVersion);
      if (typeof target === "string") {
        traces.missing++;
        continue;
      }
      const fp = target.footprint;
      if (fp === null) continue;
      const labels = JSON.parse(row.labels) as Record<string, Label>;
      let movable = fp.bait;
      for (const f in labels) if (labelMayMove(fp, f, labels[f])) movable = true;
      if (!movable || !mayChange(fp, labels, row.response, false)) continue;
      traces.scored++;
      const after = scoreTrace({ response: JSON.parse(row.response) as NormalizedResponse }, target.to);
      for (const f of Object.keys(after.fields)) {
        const from = labels[f];
        const to = after.fields[f].label;
        if (from !== undefined && from !== to) moved.push({ row, field: f, from, to });
      }
      if (fp.bait && row.result !== null) {
        const before = JSON.parse(row.result) as TraceScore;
        for (const f of Object.keys(after.fields)) {
          const a = before.fields[f];
          const b = after.fields[f];
          if (a?.label === "INJECT" && b.label === "INJECT") {
            const ra = a.reasons ?? [];
            const rb = b.reasons ?? [];
            if (ra.join(",") !== rb.join(",")) moves.reasons(row.id, f, ra, rb);
          }
        }
      }
    }
    if (moved.length === 0) continue;
    const reviews = currentReviewLabelsOf(db, [...new Set(moved.map((m) => m.row.id))]);
    for (const m of moved) {
      const review = reviews.get(m.row.id)?.[m.field];
      const imported = parseOr<Record<string, string>>(m.row.human)?.[m.field];
      const h = humanLabel(review === undefined ? undefined : { label: review }, imported)?.label;
      moves.label(m.row.id, m.field, m.from, m.to, h);
      // Away from a human label ours agreed with: a review's is guarded, an imported one's shown.
      if (h !== undefined && h === m.from && m.to !== h) {
        if (review !== undefined && review !== null) {
          traces.reviewedAway++;
          if (reviewed.length < GUARD_EXAMPLES)
            reviewed.push({ trace: m.row.id, field: m.field, from: m.from, to: m.to, review });
        } else traces.importedAway++;
      }
      traces.moved++;
      if (h !== undefined) {
        if (h === m.to) traces.agrees++;
        else traces.disagrees++;
      }
    }
  }
  const fields = s.all ? [] : [...s.askFields];
  return {
    change: s.change,
    fields,
    fixtures,
    traces: { ...traces, reviewed, fields: moves.fields(), reasons: moves.reasonList() },
    ms: Math.round(performance.now() - t0),
  };
}

interface FixtureRow {
  setName: string;
  builtin: number;
  identity: string;
  probe: string;
  world: string;
  response: string;
  field: string;
  expected: Label;
}

/** Every fixture the draft can touch, scored now and under the draft: fixed and broken per set. */
function fixtureWhatIf(db: Db, s: Scope, only?: readonly string[]): WhatIfReport["fixtures"] {
  const columns = `s.name AS setName, s.builtin, f.identity, f.probe_id AS probe, f.world_digest AS world,
    f.response, f.field, f.expected`;
  const rows = (
    s.probe !== null || s.askFields.includes(ANY_FIELD_ENTRY)
      ? db.sqlite
          .prepare(
            // The `*` entry counts for every field of every probe: every fixture.
            `SELECT ${columns} FROM fixtures f JOIN fixture_sets s ON s.id = f.set_id WHERE ? IS NULL OR f.probe_id = ? ORDER BY f.id`,
          )
          .iterate(s.probe, s.probe)
      : db.sqlite
          .prepare(
            `SELECT ${columns} FROM fixtures f JOIN fixture_sets s ON s.id = f.set_id
             WHERE f.field IN (SELECT value FROM json_each(?)) ORDER BY f.id`,
          )
          .iterate(JSON.stringify(s.askFields))
  ) as Iterable<FixtureRow>;
  const now = new FixtureScoring(db);
  const drafted = new FixtureScoring(db, s.scoring);
  const flips = new FlipTally();
  const wanted = only ? new Set(only) : null;
  for (const r of rows) {
    if (wanted && !wanted.has(r.setName)) continue;
    const response = JSON.parse(r.response) as NormalizedResponse;
    const before = now.scorer(r.world)(response, r.field).label;
    const after = drafted.scorer(r.world)(response, r.field).label;
    flips.add(r.setName, r.builtin === 1, {
      set: r.setName,
      identity: r.identity,
      probe: r.probe,
      field: r.field,
      expected: r.expected,
      before,
      after,
    });
  }
  const sets = flips.outcomes();
  return {
    touched: sets.reduce((n, x) => n + x.touched, 0),
    fixed: sets.reduce((n, x) => n + x.fixed, 0),
    broken: sets.reduce((n, x) => n + x.broken, 0),
    seedBroken: sets.filter((x) => x.seed).reduce((n, x) => n + x.broken, 0),
    sets,
  };
}

/**
 * What saving the draft needs confirmed (lib/tuning/guard.ts): every fixture it touches and every
 * stored field it moves, since a move away from a review is guarded as a seed break is.
 */
export function saveGuard(db: Db, draft: TuneDraft): SaveGuard {
  return guardOf(whatIf(db, draft));
}
