import { AskText } from "../lexicon/ask";
import { DRAFT_LEXICON_VERSION } from "../lexicon/draft";
import { applyLexiconEdit, type Lexicon, type LexiconEdit } from "../lexicon/lexicon";
import { wholeWordsAt } from "../lexicon/matcher";
import { type CompiledProbe, compileProbe } from "../probe/compile";
import { askingText } from "../probe/fences";
import type { NormalizedResponse } from "../probe/response";
import type { Label, Probe } from "../probe/schema";
import { callName, isFalsy, readArguments, scoreTrace } from "../probe/score";
import type { TuningTarget } from "./contract";
import { takeIntoTerms } from "./draftChange";
import type { AskRule, HumanSource, LabelledField, SuggestionEvaluator, TermChange } from "./types";

/**
 * The suggestion rules bound to the one scorer: each labelled field is scored by scoreTrace with
 * its probe compiled with the lexicon, and a draft is the lexicon (or, with `--probe`, that
 * probe's own terms) with the draft's changes applied. Pure: the caller reads the fields and
 * their probes (db/queries/suggestInputs.ts).
 */

export interface ScoredInput {
  key: string;
  field: string;
  human: Label;
  source: HumanSource;
  response: NormalizedResponse;
  /** The probe as it scores this field now: its world with its current configuration. */
  probe: Probe;
}

export interface BoundSuggestion {
  target: TuningTarget<Probe>;
  fields: LabelledField[];
  evaluator: SuggestionEvaluator;
  /** The draft as a lexicon (lexicon target). */
  lexiconWith(draft: readonly TermChange[]): Lexicon;
  /** The draft as the probe's ask terms (probe target). */
  askTermsWith(draft: readonly TermChange[]): Record<string, string[]>;
}

/** The lexicon's word boundary (lib/lexicon/matcher.ts), where a candidate term occurs. */
export const atWordBoundaries = wholeWordsAt;

/** The draft's changes as one lexicon edit. */
export function lexiconEditOf(draft: readonly TermChange[]): LexiconEdit {
  const add: { field: string; term: string }[] = [];
  const remove: { field: string; term: string }[] = [];
  const rule: { field: string; rule: AskRule }[] = [];
  for (const c of draft) {
    if (c.kind === "add") add.push({ field: c.field, term: c.term });
    else if (c.kind === "remove") remove.push({ field: c.field, term: c.term });
    else rule.push({ field: c.field, rule: c.rule });
  }
  return { add, remove, rule };
}

/**
 * A probe's ask terms with the draft applied. A field's first own term keeps the field-name
 * fallback it replaces (its name and the name with spaces), so adding a term never makes the
 * probe stop asking by name.
 */
export function askTermsWithDraft(probe: Probe, draft: readonly TermChange[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [f, terms] of Object.entries(probe.ask_terms)) out[f] = terms.map((t) => t.toLowerCase());
  for (const c of draft) if (c.kind !== "rule") out[c.field] = takeIntoTerms(out[c.field] ?? [], c.field, c);
  return out;
}

/** The clarify call's argument strings (lower-cased, keys included), as the scorer reads them. */
function clarifyStrings(response: NormalizedResponse, p: CompiledProbe): string[] | undefined {
  const first = response.tool_calls[0];
  if (isFalsy(first) || typeof first !== "object" || first === null || Array.isArray(first)) return undefined;
  const call = first as Record<string, unknown>;
  const name = callName(call) ?? p.toolName;
  if (name === null || name !== p.clarifyTool) return undefined;
  const read = readArguments(call.arguments);
  if (!read.ok) return undefined;
  const out: string[] = [];
  const walk = (v: unknown, depth: number) => {
    if (depth > 20) return;
    if (typeof v === "string") out.push(v.toLowerCase());
    else if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (v && typeof v === "object")
      for (const [k, x] of Object.entries(v)) {
        out.push(k.toLowerCase());
        walk(x, depth + 1);
      }
  };
  walk(read.args, 0);
  return out;
}

export function bindSuggestion(
  inputs: readonly ScoredInput[],
  lexicon: Lexicon,
  target: TuningTarget<Probe>,
): BoundSuggestion {
  const byKey = new Map<string, ScoredInput>();
  const lexicons = new WeakMap<readonly TermChange[], Lexicon>();
  const probes = new WeakMap<readonly TermChange[], WeakMap<Probe, Probe>>();
  const lexiconWith = (draft: readonly TermChange[]): Lexicon => {
    // With --probe, a draft changes the probe's terms: the lexicon stays as it is.
    if (draft.length === 0 || target.kind === "probe") return lexicon;
    let l = lexicons.get(draft);
    if (!l) {
      // Compiled probes are cached per lexicon object: one object per draft.
      l = {
        version: DRAFT_LEXICON_VERSION,
        // Weighed, never saved here: a lexicon at its limits still gets suggestions (a save checks).
        entries: applyLexiconEdit(lexicon.entries, lexiconEditOf(draft), { limits: false }),
      };
      lexicons.set(draft, l);
    }
    return l;
  };
  const probeWithDraft = (probe: Probe, draft: readonly TermChange[]): Probe => {
    if (draft.length === 0 || target.kind !== "probe") return probe;
    let m = probes.get(draft);
    if (!m) {
      m = new WeakMap();
      probes.set(draft, m);
    }
    let p = m.get(probe);
    if (!p) {
      p = { ...probe, ask_terms: askTermsWithDraft(probe, draft) };
      m.set(probe, p);
    }
    return p;
  };
  const compiled = (input: ScoredInput, draft: readonly TermChange[]) =>
    target.kind === "lexicon"
      ? compileProbe(input.probe, lexiconWith(draft))
      : compileProbe(probeWithDraft(input.probe, draft), lexicon);
  // A reply with no call is labelled by rule 1 alone: the compiled field's ask test on the reply's
  // text, which scoreTrace runs on a fresh AskText each time. Kept per input, its question
  // sentences are read once however many drafts score it; any other reply goes through scoreTrace.
  const texts = new Map<ScoredInput, AskText>();
  const labelOf = (input: ScoredInput, draft: readonly TermChange[]): Label => {
    const p = compiled(input, draft);
    const ask = p.ask[input.field];
    if (ask && isFalsy(input.response.tool_calls[0])) {
      let t = texts.get(input);
      if (!t) {
        t = new AskText(askingText(input.response));
        texts.set(input, t);
      }
      return ask.asks(t) ? "ASK" : "DRIFT";
    }
    return scoreTrace({ response: input.response }, p).fields[input.field]?.label ?? "ERROR";
  };

  const fields: LabelledField[] = inputs.map((input) => {
    byKey.set(input.key, input);
    const p = compiled(input, []);
    const item: LabelledField = {
      key: input.key,
      field: input.field,
      text: input.response.text ?? "",
      ours: labelOf(input, []),
      human: input.human,
      source: input.source,
    };
    const also = clarifyStrings(input.response, p);
    if (also) item.also = also;
    return item;
  });

  const termsOf = (item: LabelledField): string[] => {
    const ask = compiled(byKey.get(item.key) as ScoredInput, []).ask[item.field];
    return ask ? [...ask.probeTerms, ...ask.lexiconTerms] : [];
  };
  const ruleOf = (field: string, draft: readonly TermChange[]): AskRule => {
    const e = lexiconWith(draft).entries[field];
    return Object.hasOwn(lexiconWith(draft).entries, field) && e ? e.rule : "anywhere";
  };
  const evaluator: SuggestionEvaluator =
    target.kind === "lexicon"
      ? {
          rules: true,
          prepare: (s) => s.replace(/\s+/gu, " "),
          accepts: atWordBoundaries,
          rule: ruleOf,
          removable: (field, draft) => {
            const entries = lexiconWith(draft).entries;
            return Object.hasOwn(entries, field) ? entries[field].terms : [];
          },
          label: (item, draft) => labelOf(byKey.get(item.key) as ScoredInput, draft),
          termsOf,
        }
      : {
          rules: false,
          prepare: (s) => s,
          accepts: () => true,
          rule: ruleOf,
          removable: (field, draft) => askTermsWithDraft(target.probe, draft)[field] ?? [],
          label: (item, draft) => labelOf(byKey.get(item.key) as ScoredInput, draft),
          termsOf,
        };
  return {
    target,
    fields,
    evaluator,
    lexiconWith,
    askTermsWith: (draft) => (target.kind === "probe" ? askTermsWithDraft(target.probe, draft) : {}),
  };
}
