import type { WorldState } from "../gate/facts";
import { type FieldAsk, fieldAsk } from "../lexicon/ask";
import { EMPTY_LEXICON, type Lexicon } from "../lexicon/lexicon";
import type { Probe } from "./schema";

/** What the scorer needs from a probe (with a lexicon), computed once per probe definition and lexicon. */
export interface CompiledProbe {
  readonly probe: Probe;
  /** The shared lexicon it scores with (the empty one unless told). */
  readonly lexicon: Lexicon;
  readonly fields: readonly string[];
  /** The probe's own lower-cased ask terms per probed field (askTermsFor). */
  readonly askTerms: Readonly<Record<string, readonly string[]>>;
  /** Per probed field, when a reply asks for it: the probe's terms, the lexicon's, the rule. */
  readonly ask: Readonly<Record<string, FieldAsk>>;
  /** V: top-level string values of `redacted` and user-text tokens, lower-cased. */
  readonly visible: ReadonlySet<string>;
  readonly redactedStrings: ReadonlySet<string>;
  readonly hiddenStrings: ReadonlySet<string>;
  readonly bait: ReadonlySet<string>;
  readonly userLower: string;
  readonly toolName: string | null;
  readonly clarifyTool: string | null;
  /** Side effects by tool name, for the gate. */
  readonly mutatingByTool: ReadonlyMap<string, boolean>;
  readonly requires: readonly string[];
  readonly facts: WorldState;
}

const TOKEN = /[A-Za-z_/+-]{3,}/g;

/** V = every top-level string value of `redacted`, lower-cased, plus the user-text tokens. */
export function visibleSet(redacted: Record<string, unknown>, user: string): Set<string> {
  const v = lowerStrings(redacted);
  for (const m of user.toLowerCase().match(TOKEN) ?? []) v.add(m);
  return v;
}

function lowerStrings(obj: Record<string, unknown>): Set<string> {
  const out = new Set<string>();
  for (const value of Object.values(obj)) if (typeof value === "string") out.add(value.toLowerCase());
  return out;
}

/** The probed fields: as declared, else the tool's properties absent from `redacted`. */
export function probedFields(probe: Probe): string[] {
  if (probe.fields) return [...probe.fields];
  const props = probe.tool?.parameters?.properties;
  if (!props || typeof props !== "object" || Array.isArray(props)) return [];
  return Object.keys(props).filter((k) => !Object.hasOwn(probe.redacted, k));
}

/** The field a bare label (one string, not one per field) applies to: `timezone` when probed, else the first. */
export function bareLabelField(fields: readonly string[]): string | null {
  return fields.includes("timezone") ? "timezone" : (fields[0] ?? null);
}

/** A field with no ask terms uses its name and the name with `_` as spaces. */
export function askTermsFor(probe: Probe, field: string): string[] {
  const declared = probe.ask_terms[field];
  if (declared && declared.length > 0) return declared.map((t) => t.toLowerCase());
  const name = field.toLowerCase();
  const spaced = name.replaceAll("_", " ");
  return spaced === name ? [name] : [name, spaced];
}

/** The agent loop's facts: declared ones, else `known` for each redacted key, `unknown` for the rest required. */
export function defaultFacts(probe: Probe): WorldState {
  if (probe.facts) return probe.facts;
  const facts: WorldState = {};
  for (const [k, value] of Object.entries(probe.redacted))
    facts[k] = { status: "known", value, source: "state" };
  for (const k of probe.requires)
    if (!(k in facts)) facts[k] = { status: "unknown", value: null, source: "unset" };
  return facts;
}

/** Compiled probes per lexicon (a lexicon version is one object, never changed), per definition. */
const cache = new WeakMap<Lexicon, WeakMap<Probe, CompiledProbe>>();

/**
 * Compiles a probe for the scorer with a lexicon (default: none, the built-in configuration).
 * Cached per (lexicon, probe) object: treat both as immutable.
 */
export function compileProbe(probe: Probe, lexicon: Lexicon = EMPTY_LEXICON): CompiledProbe {
  let byProbe = cache.get(lexicon);
  if (!byProbe) {
    byProbe = new WeakMap();
    cache.set(lexicon, byProbe);
  }
  const hit = byProbe.get(probe);
  if (hit) return hit;
  const fields = probedFields(probe);
  const askTerms: Record<string, string[]> = {};
  const ask: Record<string, FieldAsk> = {};
  for (const f of fields) {
    askTerms[f] = askTermsFor(probe, f);
    ask[f] = fieldAsk(askTerms[f], lexicon, f);
  }
  const mutatingByTool = new Map<string, boolean>();
  for (const t of probe.tools ?? []) mutatingByTool.set(t.name, t.mutating);
  if (probe.tool) mutatingByTool.set(probe.tool.name, probe.tool.mutating);
  const compiled: CompiledProbe = {
    probe,
    lexicon,
    fields,
    askTerms,
    ask,
    visible: visibleSet(probe.redacted, probe.user),
    redactedStrings: lowerStrings(probe.redacted),
    hiddenStrings: lowerStrings(probe.hidden),
    bait: new Set(probe.bait.map((b) => b.toLowerCase())),
    userLower: probe.user.toLowerCase(),
    toolName: probe.tool?.name ?? null,
    clarifyTool: probe.clarify_tool ?? null,
    mutatingByTool,
    requires: probe.requires,
    facts: defaultFacts(probe),
  };
  byProbe.set(probe, compiled);
  return compiled;
}
