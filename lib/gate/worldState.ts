import { type Fact, type FactStatus, fact, type WorldState } from "./facts";

export type ParseResult = { ok: true; state: WorldState } | { ok: false; error: string };

const STATUSES: readonly FactStatus[] = ["known", "unknown", "conflict"];
const FACT_KEYS = new Set(["status", "value", "source"]);

/** A short name for what a value is, for error messages. */
function kindOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") {
    const ctor = Object.getPrototypeOf(v)?.constructor?.name;
    return ctor && ctor !== "Object" ? `a ${ctor}` : "an object";
  }
  if (typeof v === "string") return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint")
    return `the ${typeof v} ${String(v)}`;
  return typeof v;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** Defines an own data property, so a key such as "__proto__" stays a fact and never sets a prototype. */
function setOwn(state: WorldState, key: string, f: Fact): void {
  Object.defineProperty(state, key, { value: f, enumerable: true, writable: true, configurable: true });
}

/** Validates one entry against `{status: known|unknown|conflict, value?, source?}` (the shape of `FactSchema`). */
function readFact(key: string, entry: unknown): { ok: true; fact: Fact } | { ok: false; error: string } {
  const where = `fact ${JSON.stringify(key)}:`;
  if (!isPlainObject(entry)) {
    return {
      ok: false,
      error: `${where} must be an object {status, value?, source?}, got ${kindOf(entry)}`,
    };
  }
  const extra = Object.keys(entry).filter((k) => !FACT_KEYS.has(k));
  if (extra.length > 0) {
    const list = extra.map((k) => JSON.stringify(k)).join(", ");
    return {
      ok: false,
      error: `${where} unexpected key${extra.length > 1 ? "s" : ""} ${list} (allowed: status, value, source)`,
    };
  }
  if (!Object.hasOwn(entry, "status") || entry.status === undefined) {
    return { ok: false, error: `${where} missing "status" (expected one of ${STATUSES.join("|")})` };
  }
  const status = entry.status;
  if (typeof status !== "string" || !(STATUSES as readonly string[]).includes(status)) {
    return {
      ok: false,
      error: `${where} "status" is ${kindOf(status)}, expected one of ${STATUSES.join("|")}`,
    };
  }
  if (entry.source !== undefined && typeof entry.source !== "string") {
    return { ok: false, error: `${where} "source" is ${kindOf(entry.source)}, expected a string` };
  }
  const f: Fact = { status: status as FactStatus };
  if (Object.hasOwn(entry, "value")) f.value = entry.value;
  if (entry.source !== undefined) f.source = entry.source as string;
  return { ok: true, fact: f };
}

/**
 * Reads a world state from a JSON string or an already-parsed value. Never throws: anything that is not a
 * JSON object of facts is an input error whose message says what was wrong and where. With `names`, every
 * name absent from the input becomes an explicit `unknown` fact (unknown is a value, not a missing key);
 * the state lists `names` first, in that order, then any other keys in input order.
 */
export function parseWorldState(input: unknown, names?: readonly string[]): ParseResult {
  try {
    return parse(input, names);
  } catch (e) {
    // Only a hostile already-parsed value (a throwing getter or Proxy) gets here; JSON text cannot.
    return {
      ok: false,
      error: `world state could not be read: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
}

function parse(input: unknown, names?: readonly string[]): ParseResult {
  let raw: unknown = input;
  if (typeof input === "string") {
    try {
      raw = JSON.parse(input);
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      return { ok: false, error: `world state is not JSON: ${reason}` };
    }
  }
  if (!isPlainObject(raw)) {
    return { ok: false, error: `world state must be a JSON object of facts, got ${kindOf(raw)}` };
  }
  const read = new Map<string, Fact>();
  for (const key of Object.keys(raw)) {
    const r = readFact(key, raw[key]);
    if (!r.ok) return { ok: false, error: r.error };
    read.set(key, r.fact);
  }
  const state: WorldState = {};
  for (const name of names ?? []) {
    if (!Object.hasOwn(state, name)) setOwn(state, name, read.get(name) ?? fact.unknown());
  }
  for (const [key, f] of read) if (!Object.hasOwn(state, key)) setOwn(state, key, f);
  return { ok: true, state };
}

export interface FuzzResult {
  /** States that parsed, in input order. */
  states: WorldState[];
  /** Blobs that were not a JSON object of facts: counted, never a crash, never skipped silently. */
  inputErrors: number;
  /** One message per input error, prefixed with the blob's index. */
  errors: string[];
}

/**
 * Parses sloppy model output. Departs from the article's `fuzz_world_state`, which `continue`s past parse
 * failures without counting them (and whose `state_from_agent_json` crashes with AttributeError, outside
 * its except tuple, on a JSON array or a non-object fact). Invalid JSON is a successful test input here.
 */
export function fuzzWorldStates(blobs: Iterable<string>, names: readonly string[]): FuzzResult {
  const out: FuzzResult = { states: [], inputErrors: 0, errors: [] };
  let i = 0;
  for (const blob of blobs) {
    const r = parseWorldState(blob, names);
    if (r.ok) out.states.push(r.state);
    else {
      out.inputErrors += 1;
      out.errors.push(`blob ${i}: ${r.error}`);
    }
    i += 1;
  }
  return out;
}
