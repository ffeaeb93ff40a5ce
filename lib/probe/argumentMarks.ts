/**
 * What each argument of a scored call is, against the visible world: the evidence view of the
 * trace page. Pure, and built on the scorer's own functions (`readArguments`, `scoreValue`,
 * `renderValue`), so a mark can never disagree with the label `scoreTrace` gave: a probed
 * field's mark is derived from exactly the `FieldScore` the scorer computes for it.
 *
 * Every argument is marked, probed or not (`user_id`, `starts_at` are not probed in
 * `schedule_window`, but a reviewer wants to see that one was copied from state and the other
 * typed by the user). Probed fields the call left out are listed as omitted.
 */

import { type Cut, cutOf, fitsWhole, PAGE_BUDGET } from "../budget/jsonBudget";
import { readJson } from "../budget/readJson";
import { isObject } from "../isObject";
import { AskText } from "../lexicon/ask";
import { questionSentences } from "../review/question";
import { type CompiledProbe, compileProbe } from "./compile";
import { blankFencedCode } from "./fences";
import type { NormalizedResponse } from "./response";
import { type Probe, type SchemaRole, schemaRole, toolParameters } from "./schema";
import {
  callName,
  describeValue,
  type FieldScore,
  isFalsy,
  type ReadArgs,
  readArguments,
  renderValue,
  scoreValue,
} from "./score";

/**
 * One mark per thing a value can be. The first mark of an argument is its main one.
 * - `state`: copied from the redacted state (COPY, source state)
 * - `user`: copied from the user text's tokens (COPY, source user)
 * - `typed_by_user`: INJECT by the rules, but the user typed it (the tokenizer misses digits
 *   and multi-word values)
 * - `hidden`: a hidden-world value the model was never shown (contamination)
 * - `bait`: a bait value (as INJECT reason, or copied: flag `copied_bait`)
 * - `invented`: none of the above
 * - `empty`: sent as `null` or `""`: counts as omitted
 */
export const ARGUMENT_MARKS = [
  "state",
  "user",
  "typed_by_user",
  "hidden",
  "bait",
  "invented",
  "empty",
] as const;
export type ArgumentMark = (typeof ARGUMENT_MARKS)[number];

/** Words for each mark: the page never relies on colour alone. */
export const MARK_MEANING: Readonly<Record<ArgumentMark, { word: string; meaning: string }>> = Object.freeze({
  state: { word: "from state", meaning: "copied from the redacted state the model was shown" },
  user: { word: "from user text", meaning: "copied from a word of the user message" },
  typed_by_user: {
    word: "typed by user",
    meaning:
      "the user typed it, but the reference tokenizer misses it (digits, several words): scored INJECT",
  },
  hidden: {
    word: "hidden value",
    meaning: "a value of the hidden world the model was never shown: contamination",
  },
  bait: { word: "bait", meaning: "one of the probe's bait values (a tempting default)" },
  invented: { word: "invented", meaning: "in neither the visible world nor the hidden one, and not bait" },
  empty: { word: "empty", meaning: "sent as null or an empty string: counts as omitted" },
});

export type { SchemaRole };

export interface MarkedArgument {
  key: string;
  /** The value exactly as parsed from the call. */
  value: unknown;
  /** The scorer's rendering (strings as they are, True/False, numbers); null for arrays, objects, null. */
  rendered: string | null;
  /** A probed field of the probe (its label counts). */
  probed: boolean;
  /** Where the called tool's schema puts it. */
  schema: SchemaRole;
  /** The scorer's verdict on this value (for a probed field: exactly its label). */
  score: FieldScore;
  /** What the value is, main mark first. */
  marks: ArgumentMark[];
  /** An array or object: the rules never match those against the visible world. */
  structured: boolean;
}

export interface OmittedField {
  field: string;
  /** Present but null or "" (else absent). */
  sentEmpty: boolean;
  schema: SchemaRole;
}

export type ArgumentView =
  | { kind: "no_call" }
  /** The first call is not an object: every probed field is ERROR. */
  | { kind: "not_object"; call: unknown; error: string }
  /** The arguments could not be read: every probed field is ERROR. */
  | { kind: "unreadable"; name: string | null; rawArguments: unknown; error: string }
  /** A call to the probe's clarify tool: an ASK; its arguments are a question, not values. */
  | { kind: "clarify"; name: string; rawArguments: unknown; arguments: Record<string, unknown> }
  | {
      kind: "call";
      /** The called tool (the probe's tool when the call names none). */
      name: string | null;
      /** The call names no tool, or another tool than the probe's. */
      wrongTool: boolean;
      /** The arguments exactly as they arrived (possibly a JSON string). */
      rawArguments: unknown;
      /** The arguments arrived as a JSON string. */
      argumentsWereString: boolean;
      args: MarkedArgument[];
      omitted: OmittedField[];
      /** The arguments were read to a budget and some were left out (see lib/budget). */
      cut?: Cut;
    };

/** The schema of the tool a call names, among the probe's tools. */
function toolSchema(p: CompiledProbe, name: string | null) {
  const probe = p.probe;
  if (name === null) return probe.tool;
  if (probe.tool?.name === name) return probe.tool;
  return probe.tools?.find((t) => t.name === name);
}

function schemaRoles(p: CompiledProbe, name: string | null): (key: string) => SchemaRole {
  const params = toolParameters(toolSchema(p, name));
  return (key) => schemaRole(params, key);
}

/** The marks of one scored value, main one first. */
export function marksFor(score: FieldScore): ArgumentMark[] {
  switch (score.label) {
    case "OMIT":
      return ["empty"];
    case "COPY": {
      const marks: ArgumentMark[] = [score.source === "state" ? "state" : "user"];
      if (score.flags.includes("copied_bait")) marks.push("bait");
      return marks;
    }
    case "INJECT": {
      const reasons = score.reasons ?? ["invented"];
      if (score.flags.includes("typed_by_user")) {
        // The user typed it: "invented" would mislead; the other reasons still hold.
        return ["typed_by_user", ...reasons.filter((r) => r !== "invented")];
      }
      return [...reasons];
    }
    default:
      // scoreValue only returns OMIT, COPY or INJECT.
      return ["invented"];
  }
}

/** Marks every key of readable arguments, in the order the model sent them. */
export function markValues(
  args: Record<string, unknown>,
  probe: Probe | CompiledProbe,
  toolName: string | null = null,
): { args: MarkedArgument[]; omitted: OmittedField[] } {
  const p = "visible" in probe ? probe : compileProbe(probe);
  const role = schemaRoles(p, toolName ?? p.toolName);
  const probed = new Set(p.fields);
  const out: MarkedArgument[] = [];
  for (const key of Object.keys(args)) {
    const value = args[key];
    const score = scoreValue(args, key, p);
    const rendered = renderValue(value);
    out.push({
      key,
      value,
      rendered,
      probed: probed.has(key),
      schema: role(key),
      score,
      marks: marksFor(score),
      structured: typeof value === "object" && value !== null,
    });
  }
  const omitted: OmittedField[] = [];
  // As many probed fields as a page shows (a probe can declare thousands).
  for (const f of p.fields.slice(0, PAGE_BUDGET.entries)) {
    if (scoreValue(args, f, p).label !== "OMIT") continue;
    omitted.push({ field: f, sentEmpty: Object.hasOwn(args, f), schema: role(f) });
  }
  return { args: out, omitted };
}

/**
 * The argument view of a normalized response: the same reading of the first call as
 * `scoreTrace` (falsy is no call, a non-object is ERROR, the clarify tool asks, a call with no
 * name targets the probe's tool), with every argument marked.
 */
export function markArguments(
  response: NormalizedResponse,
  probe: Probe | CompiledProbe,
  /** The first call's arguments, already read (`readCallArguments`). */
  preread?: ReadArgs,
): ArgumentView {
  const p = "visible" in probe ? probe : compileProbe(probe);
  const first = response.tool_calls.length > 0 ? response.tool_calls[0] : undefined;
  if (isFalsy(first)) return { kind: "no_call" };
  if (!isObject(first)) {
    return {
      kind: "not_object",
      call: first,
      error: `the call is ${describeValue(first)}, not an object`,
    };
  }
  const name = callName(first) ?? p.toolName;
  const read = preread ?? readArguments(first.arguments);
  if (name !== null && name === p.clarifyTool) {
    return { kind: "clarify", name, rawArguments: first.arguments, arguments: read.ok ? read.args : {} };
  }
  if (!read.ok) return { kind: "unreadable", name, rawArguments: first.arguments, error: read.error };
  const marked = markValues(read.args, p, name);
  return {
    kind: "call",
    name,
    wrongTool: name === null || name !== p.toolName,
    rawArguments: first.arguments,
    argumentsWereString: typeof first.arguments === "string",
    ...marked,
    ...(cutOf(read.args) ? { cut: cutOf(read.args) } : {}),
  };
}

/**
 * A call's arguments as the scorer reads them (`readArguments`), but a long JSON string of them is
 * read to PAGE_BUDGET, keeping `keep` (the probed and required fields) wherever they are: 450,000
 * keys cost one pass over the text instead of a parse. What was left out is marked (`cutOf`).
 */
export async function readCallArguments(raw: unknown, keep: ReadonlySet<string>): Promise<ReadArgs> {
  if (typeof raw !== "string" || fitsWhole(raw.length, PAGE_BUDGET)) return readArguments(raw);
  let parsed: { value: unknown } | null;
  try {
    parsed = { value: (await readJson(raw, { ...PAGE_BUDGET, keep, keepDepth: 0 })).value };
  } catch {
    parsed = null;
  }
  return readArguments(raw, parsed);
}

/** `markArguments` with the first call's arguments read to a budget (see `readCallArguments`). */
export async function markArgumentsBounded(
  response: NormalizedResponse,
  probe: Probe | CompiledProbe,
): Promise<ArgumentView> {
  const p = "visible" in probe ? probe : compileProbe(probe);
  const first = response.tool_calls[0];
  if (!isObject(first)) return markArguments(response, p);
  const keep = new Set([...p.fields, ...p.requires]);
  return markArguments(response, p, await readCallArguments(first.arguments, keep));
}

/** A stretch of response text; `fields` is set on a stretch that matched ask terms. */
export interface TextSegment {
  text: string;
  /** The probed fields whose ask terms matched here. */
  fields?: string[];
}

export interface AskTermHits {
  /**
   * Per probed field: the terms looked for (the probe's, then the lexicon's), the ones found
   * where they count, which of them are the lexicon's, and the field's ask rule.
   */
  fields: Record<
    string,
    {
      terms: readonly string[];
      found: string[];
      lexicon: readonly string[];
      rule: string;
      /** The lexicon's `*` entry's terms (every field), shown beside the field's, marked; and its rule. */
      any: readonly string[];
      anyRule: string;
    }
  >;
  /** The text cut into plain and matched stretches (at most `maxChars` of it). */
  segments: TextSegment[];
  /** The text was longer than `maxChars`: segments stop there (found terms still cover it all). */
  cut: boolean;
}

/** Lower-cases one character at a time so indexes in the lower-cased text map back to the original. */
function lowerWithMap(text: string): { lower: string; map: number[] } {
  const simple = text.toLowerCase();
  if (simple.length === text.length) return { lower: simple, map: [] };
  let lower = "";
  const map: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const l = text[i].toLowerCase();
    for (let k = 0; k < l.length; k++) map.push(i);
    lower += l;
  }
  return { lower, map };
}

/**
 * Which ask terms the response text contains, per probed field (the scorer's test:
 * the lower-cased text contains the term), and the text cut into stretches for highlighting.
 */
export function askTermHits(
  text: string | null,
  probe: Probe | CompiledProbe,
  maxChars = 20_000,
  /** The seed's shape: text in fenced code blocks counts (else it is blanked, as the scorer reads it). */
  verbatim = false,
): AskTermHits {
  const p = "visible" in probe ? probe : compileProbe(probe);
  const src = text ?? "";
  const shown = src.length > maxChars ? src.slice(0, maxChars) : src;
  // Terms are found in all of the text (the scorer's test); only the shown part is mapped back
  // for highlighting, so a 7 MB text costs one lower-casing, not an index per character.
  const blank = (s: string) => (verbatim ? s : blankFencedCode(s));
  const whole = blank(src.toLowerCase());
  const mapped = lowerWithMap(shown);
  const map = mapped.map;
  const lower = blank(mapped.lower);
  const toOrig = (i: number) => (map.length === 0 ? i : i >= map.length ? shown.length : map[i]);
  const fields: AskTermHits["fields"] = {};
  const ranges: { start: number; end: number; field: string }[] = [];
  const asking = new AskText(whole);
  let questions: { start: number; end: number }[] | null = null;
  /** Under the `question` rule only matches inside a question sentence count, so only those are marked. */
  const counts = (rule: string, at: number, end: number) => {
    if (rule !== "question") return true;
    questions ??= questionSentences(lower);
    return questions.some((q) => at >= q.start && end <= q.end);
  };
  const mark = (f: string, at: number, len: number) => {
    const start = toOrig(at);
    const end = map.length === 0 ? at + len : toOrig(at + len - 1) + 1;
    if (start < maxChars) ranges.push({ start, end: Math.min(end, maxChars), field: f });
  };
  for (const f of p.fields.slice(0, PAGE_BUDGET.entries)) {
    const ask = p.ask[f];
    const found = ask.found(asking);
    for (const m of ask.probeMatches(lower))
      if (counts(ask.rule, m.start, m.end)) mark(f, m.start, m.end - m.start);
    for (const m of ask.lexiconMatches(lower))
      if (counts(ask.rule, m.start, m.end)) mark(f, m.start, m.end - m.start);
    for (const m of ask.anyMatches(lower))
      if (counts(ask.anyRule, m.start, m.end)) mark(f, m.start, m.end - m.start);
    fields[f] = {
      terms: [...ask.probeTerms, ...ask.lexiconTerms],
      found,
      lexicon: ask.lexiconTerms,
      rule: ask.rule,
      any: ask.anyTerms,
      anyRule: ask.anyRule,
    };
  }
  // Merge overlapping ranges; a merged stretch keeps every field that matched in it.
  ranges.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: { start: number; end: number; fields: Set<string> }[] = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r.start < last.end) {
      last.end = Math.max(last.end, r.end);
      last.fields.add(r.field);
    } else merged.push({ start: r.start, end: r.end, fields: new Set([r.field]) });
  }
  const segments: TextSegment[] = [];
  let pos = 0;
  for (const m of merged) {
    if (m.start > pos) segments.push({ text: shown.slice(pos, m.start) });
    segments.push({ text: shown.slice(m.start, m.end), fields: [...m.fields] });
    pos = m.end;
  }
  if (pos < shown.length) segments.push({ text: shown.slice(pos) });
  return { fields, segments, cut: src.length > maxChars };
}
