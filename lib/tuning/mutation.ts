/**
 * The mutation check (DESIGN.md, "Tuning the scorer"): for each ask term and the clarify tool,
 * which fixtures fail without it. A term no fixture needs is dead: nothing curated would notice
 * it gone, so either it is noise or the fixture sets miss the case it was added for.
 *
 * In time linear in terms x fixtures at most, never compiling the probe once per term: each
 * fixture is read once with its field's matchers (termsItNeeds), which say which terms it holds
 * where they count; a term is needed by the fixture when taking that term alone out changes the
 * label (the only term found, or the probe's only term whose removal brings back the field-name
 * fallback). The clarify tool is one mutant per probe: the caller scores with the probe compiled
 * once without it. Pure.
 */
import { AskText, type FieldAsk, fieldAsk } from "../lexicon/ask";
import { askTermsFor, type CompiledProbe } from "../probe/compile";
import { askingText } from "../probe/fences";
import type { NormalizedResponse } from "../probe/response";
import { callName, collectStrings, isFalsy, readArguments } from "../probe/score";

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

/** A mutant's identity, to look it up among the ones a fixture needs. */
export function mutantKey(m: Mutant): string {
  if (m.kind === "clarify_tool") return `c\u0000${m.probe}\u0000${m.tool}`;
  if (m.kind === "probe_term") return `p\u0000${m.probe}\u0000${m.field}\u0000${m.term}`;
  return `l\u0000${m.field}\u0000${m.term}`;
}

/**
 * Each mutant with the passing fixtures it touches that fail without it. `failsWithout` gives,
 * for one passing fixture, the mutants whose removal alone fails it (any order, any others).
 */
export function mutationCheck<F extends MutationFixture>(
  mutants: readonly Mutant[],
  fixtures: readonly F[],
  failsWithout: (fixture: F) => Iterable<Mutant>,
): MutationResult<F>[] {
  const needed = new Map<string, F[]>();
  for (const m of mutants) needed.set(mutantKey(m), []);
  for (const f of fixtures) {
    if (!f.passes) continue;
    for (const m of failsWithout(f)) {
      if (!touches(m, f)) continue;
      needed.get(mutantKey(m))?.push(f);
    }
  }
  return mutants.map((mutant) => {
    const list = needed.get(mutantKey(mutant)) ?? [];
    return { mutant, needed: list, dead: list.length === 0 };
  });
}

/** The ask terms one field's label hangs on: the probe's own (as the probe lists them) and the lexicon's. */
export interface NeededTerms {
  probe: string[];
  lexicon: string[];
}

const NOTHING: NeededTerms = Object.freeze({ probe: [], lexicon: [] }) as unknown as NeededTerms;

/** Where a field's terms are read in a reply: its text (no call) or a clarify call's arguments too. */
type Reading = { kind: "text" } | { kind: "clarify"; said: string[]; othersNamed: boolean };

function readingOf(p: CompiledProbe, response: NormalizedResponse, field: string): Reading | null {
  const first = response.tool_calls[0];
  if (isFalsy(first)) return { kind: "text" };
  if (typeof first !== "object" || first === null || Array.isArray(first)) return null;
  const call = first as Record<string, unknown>;
  const name = callName(call) ?? p.toolName;
  if (name === null || name !== p.clarifyTool) return null;
  const read = readArguments(call.arguments);
  const said: string[] = [];
  if (read.ok) collectStrings(read.args, said);
  const othersNamed = p.fields.some((g) => g !== field && said.some((s) => p.ask[g].mentions(s)));
  return { kind: "clarify", said, othersNamed };
}

/** The field's terms with one list changed, as the scorer would read them. */
interface Parts {
  /** The probe's terms found where they count in the text; in the clarify call's arguments. */
  text: boolean;
  args: boolean;
}

/**
 * The terms of `field` whose removal alone changes its label in this response (scored with `p`,
 * as scoreTrace scores it): only a reply with no call or a call to the clarify tool reads terms.
 * The probe's own terms are given as the probe lists them (`p.probe.ask_terms`), so a removal
 * that leaves the field with none brings back its name as the terms (the fallback).
 */
export function termsItNeeds(p: CompiledProbe, response: NormalizedResponse, field: string): NeededTerms {
  const ask = p.ask[field];
  if (!ask) return NOTHING;
  const reading = readingOf(p, response, field);
  if (reading === null) return NOTHING;
  const asking = new AskText(askingText(response));
  const inText = ask.foundBySource(asking);
  const inArgs = reading.kind === "clarify" ? ask.mentionedIn(reading.said) : null;
  // The label as a function of the probe's part and the lexicon's part, in the text and the arguments.
  const label = (probe: Parts, lexicon: Parts): boolean => {
    const asks = probe.text || lexicon.text;
    if (reading.kind === "text") return asks;
    const named = probe.args || lexicon.args;
    return (!named && !reading.othersNamed) || named || asks;
  };
  const probeNow: Parts = { text: inText.probe.size > 0, args: (inArgs?.probe.size ?? 0) > 0 };
  const lexiconNow: Parts = { text: inText.lexicon.size > 0, args: (inArgs?.lexicon.size ?? 0) > 0 };
  const now = label(probeNow, lexiconNow);
  const out: NeededTerms = { probe: [], lexicon: [] };

  // A lexicon term: its list loses just it (lexicon terms are unique).
  const lexiconCandidates = new Set([...inText.lexicon, ...(inArgs?.lexicon ?? [])]);
  for (const t of lexiconCandidates) {
    const without: Parts = {
      text: inText.lexicon.size - (inText.lexicon.has(t) ? 1 : 0) > 0,
      args: (inArgs?.lexicon.size ?? 0) - (inArgs?.lexicon.has(t) ? 1 : 0) > 0,
    };
    if (label(probeNow, without) !== now) out.lexicon.push(t);
  }

  // A probe term, as listed: every entry equal to it goes; the lower-cased term stays when another
  // entry lower-cases to it; no entry left brings back the field's name.
  const declared = p.probe.ask_terms[field] ?? [];
  if (declared.length === 0) return out;
  const lowered = new Map<string, number>();
  const raw = new Map<string, number>();
  for (const t of declared) {
    lowered.set(t.toLowerCase(), (lowered.get(t.toLowerCase()) ?? 0) + 1);
    raw.set(t, (raw.get(t) ?? 0) + 1);
  }
  let fallback: Parts | null = null;
  const fallbackParts = (): Parts => {
    if (fallback === null) {
      const names = askTermsFor({ ...p.probe, ask_terms: {} }, field);
      const f: FieldAsk = fieldAsk(names, p.lexicon, field);
      fallback = {
        text: f.foundBySource(asking).probe.size > 0,
        args: reading.kind === "clarify" && f.mentionedIn(reading.said).probe.size > 0,
      };
    }
    return fallback;
  };
  for (const [t, count] of raw) {
    const lt = t.toLowerCase();
    const inTextNow = inText.probe.has(lt);
    const inArgsNow = inArgs?.probe.has(lt) ?? false;
    const emptied = count === declared.length;
    // Only a term found, or the removal that empties the list, can change anything.
    if (!inTextNow && !inArgsNow && !emptied) continue;
    let without: Parts;
    if (emptied) without = fallbackParts();
    else {
      const gone = (lowered.get(lt) ?? 0) === count;
      without = {
        text: inText.probe.size - (gone && inTextNow ? 1 : 0) > 0,
        args: (inArgs?.probe.size ?? 0) - (gone && inArgsNow ? 1 : 0) > 0,
      };
    }
    if (label(without, lexiconNow) !== now) out.probe.push(t);
  }
  return out;
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
