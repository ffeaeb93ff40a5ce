/**
 * Agent turns (DESIGN.md, "Traces from other tools"): an agent answers one request with several
 * model generations (call a tool, read its result, answer). Every generation is stored as a trace
 * with its calls; the probe's rates count one per turn and probe, the others carry `agent_step`.
 */
export const AGENT_STEP = "agent_step";

/**
 * The forms whose traces are generations of agent turns (a promptfoo result is a test case of its
 * own, never a step of a turn). The store's turn index (db/schema.ts, `traces_turn`) holds the
 * traces of exactly these forms: a form added here needs a migration that adds it there.
 */
export const TURN_FORMS = ["otlp", "phoenix", "langfuse", "inspect"] as const;

/**
 * The turn a stored trace belongs to, or null for a trace that is a turn of its own. OTLP and
 * Phoenix: the OTLP trace id (a span's `ext_id` is `traceId:spanId`); Langfuse: the trace id (an
 * observation's is `traceId:observationId`); Inspect: the sample and its epoch (`id:epoch:index`). The store finds a turn's traces by this key as a prefix of their
 * `ext_id`, so a format's key must be one.
 */
export function turnOf(form: string, extId: string | null): string | null {
  if (extId === null || !(TURN_FORMS as readonly string[]).includes(form)) return null;
  const colon = extId.lastIndexOf(":");
  return colon > 0 ? extId.slice(0, colon + 1) : null;
}

/** One generation of a turn, as the choice reads it. */
export interface TurnGeneration {
  /** Its stored trace id. */
  id: number;
  probeId: string;
  /** The span id (the `ext_id`): the tie-break after the start time. */
  spanId: string;
  /** When the span started (ISO 8601), when it says. */
  startedAt: string | null;
  /** The tools it called, by name. */
  calls: readonly string[];
  /** The tools its probe offers (`tool`, `tools`). */
  probeTools: readonly string[];
}

/**
 * The order of a turn's generations: by start time (a generation with none after those with
 * one), then by span id (an index by its number). It depends on nothing but the generations, never on the order a file
 * or the ingest batches gave them.
 */
export function turnOrder(a: TurnGeneration, b: TurnGeneration): number {
  if (a.startedAt !== b.startedAt) {
    if (a.startedAt === null) return 1;
    if (b.startedAt === null) return -1;
    const ta = Date.parse(a.startedAt);
    const tb = Date.parse(b.startedAt);
    if (!Number.isNaN(ta) && !Number.isNaN(tb) && ta !== tb) return ta - tb;
    if (a.startedAt !== b.startedAt) return a.startedAt < b.startedAt ? -1 : 1;
  }
  const order = spanOrder(a.spanId, b.spanId);
  return order !== 0 ? order : a.id - b.id;
}

const DIGITS = /^\d+$/;

/** Span ids in order: as text, but an index (an Inspect generation's `9` before `10`) as a number. */
function spanOrder(a: string, b: string): number {
  if (a.length !== b.length && DIGITS.test(a) && DIGITS.test(b)) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The generations of one turn that count in the rates: per probe, the first (turnOrder) that
 * calls one of the probe's tools, else the turn's last. Every other one is an agent step.
 */
export function countedGenerations(turn: readonly TurnGeneration[]): Set<number> {
  const byProbe = new Map<string, TurnGeneration[]>();
  for (const g of turn) {
    const list = byProbe.get(g.probeId);
    if (list) list.push(g);
    else byProbe.set(g.probeId, [g]);
  }
  const counted = new Set<number>();
  for (const gens of byProbe.values()) {
    const ordered = [...gens].sort(turnOrder);
    const calling = ordered.find((g) => g.calls.some((c) => g.probeTools.includes(c)));
    counted.add((calling ?? ordered[ordered.length - 1]).id);
  }
  return counted;
}

/** Whether a stored result (the score's JSON) carries `agent_step`. */
export function isAgentStep(result: string): boolean {
  if (!result.includes(AGENT_STEP)) return false;
  try {
    const flags = (JSON.parse(result) as { flags?: unknown }).flags;
    return Array.isArray(flags) && flags.includes(AGENT_STEP);
  } catch {
    return false;
  }
}
