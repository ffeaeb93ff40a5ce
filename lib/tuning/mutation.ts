/**
 * The mutation check (DESIGN.md, "Tuning the scorer"): for each ask term and the clarify tool,
 * which fixtures fail without it. A term no fixture needs is dead: nothing curated would notice
 * it gone, so either it is noise or the fixture sets miss the case it was added for.
 *
 * Pure: the caller gives the fixtures (with whether each passes now) and a scorer that says
 * whether a fixture passes with one part of the configuration taken out.
 */

export type Mutant =
  | { kind: "probe_term"; probe: string; field: string; term: string }
  | { kind: "lexicon_term"; field: string; term: string }
  | { kind: "clarify_tool"; probe: string; tool: string };

/** What the check needs of a fixture. */
export interface MutationFixture {
  probe: string;
  field: string;
  /** Whether it passes under the current configuration. */
  passes: boolean;
}

export interface MutationResult<F> {
  mutant: Mutant;
  /** The fixtures that pass now and fail without it. */
  needed: F[];
  dead: boolean;
}

/** Whether taking the part out can change the fixture's label at all. */
export function touches(m: Mutant, f: MutationFixture): boolean {
  if (m.kind === "lexicon_term") return f.field === m.field;
  if (m.kind === "probe_term") return f.probe === m.probe && f.field === m.field;
  return f.probe === m.probe;
}

export function mutationCheck<F extends MutationFixture>(
  mutants: readonly Mutant[],
  fixtures: readonly F[],
  passesWithout: (fixture: F, mutant: Mutant) => boolean,
): MutationResult<F>[] {
  return mutants.map((mutant) => {
    const needed = fixtures.filter((f) => f.passes && touches(mutant, f) && !passesWithout(f, mutant));
    return { mutant, needed, dead: needed.length === 0 };
  });
}

/** The parts of one probe's configuration a mutation check takes out: its own terms and its clarify tool. */
export function probeMutants(probe: {
  id: string;
  ask_terms: Record<string, string[]>;
  clarify_tool?: string | null;
}): Mutant[] {
  const out: Mutant[] = [];
  for (const field of Object.keys(probe.ask_terms).sort())
    for (const term of probe.ask_terms[field]) out.push({ kind: "probe_term", probe: probe.id, field, term });
  if (probe.clarify_tool) out.push({ kind: "clarify_tool", probe: probe.id, tool: probe.clarify_tool });
  return out;
}

/** The lexicon's terms as mutants, field by field. */
export function lexiconMutants(lexicon: Record<string, { terms: string[] }>): Mutant[] {
  const out: Mutant[] = [];
  for (const field of Object.keys(lexicon).sort())
    for (const term of lexicon[field].terms) out.push({ kind: "lexicon_term", field, term });
  return out;
}

/** A mutant in words ("timezone=\"which zone\"", "clarify tool ask_user"). */
export function describeMutant(m: Mutant): string {
  if (m.kind === "clarify_tool") return `clarify tool ${m.tool}`;
  return `${m.field}=${JSON.stringify(m.term)}`;
}
