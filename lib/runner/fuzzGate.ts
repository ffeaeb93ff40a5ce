/**
 * The second article's gate fuzzer as pure rules: each blob is the whole world state of the
 * `book_slot` probe (it declares no facts, so a key a blob lacks is unknown); it goes through the
 * real gate with a recording fake calendar; an independent check, which shares no code with the
 * gate, decides whether a booking was a leak.
 */
import { type BookingRequest, type CalendarClient, createGatedCalendar } from "../gate/calendar";
import type { WorldState } from "../gate/facts";
import { AssumptionError } from "../gate/requireKnown";
import { parseWorldState } from "../gate/worldState";
import { TRACE_SCHEMA } from "./record";

/** What the fuzzer drives: the gated calendar, or (in tests) a deliberately broken one. */
export type GateFactory = (client: CalendarClient) => { bookSlot(state: WorldState): unknown };

export const realGate: GateFactory = (client) => createGatedCalendar(client);

export type BlobVerdict = "skipped" | "blocked" | "booked" | "crashed";

export interface BlobOutcome {
  verdict: BlobVerdict;
  /** skipped: why the blob is not a world state; crashed: what the gate threw. */
  reason?: string;
  /** The parsed state, for a blob that is one. */
  state?: WorldState;
  /** blocked: the gate's lists. */
  unknown?: string[];
  conflict?: string[];
  /** What the calendar received, in order. */
  calls: BookingRequest[];
  /** Why a calendar call was a leak (none when it was not). */
  leaks: string[];
}

/** Independent of the gate: known, as an own key, with a value other than null, undefined or "". */
function knownWithValue(state: WorldState, name: string): boolean {
  if (!Object.hasOwn(state, name)) return false;
  const f = state[name] as { status?: unknown; value?: unknown } | undefined;
  return f?.status === "known" && f.value !== null && f.value !== undefined && f.value !== "";
}

/**
 * Leaks in the calls the calendar received for one state: any call while a required fact is not
 * known with a value, and any call that receives anything but the required facts' values (another
 * key, a missing key, another value).
 */
export function findLeaks(
  state: WorldState,
  requires: readonly string[],
  calls: readonly unknown[],
): string[] {
  const leaks: string[] = [];
  if (calls.length === 0) return leaks;
  const notKnown = requires.filter((n) => !knownWithValue(state, n));
  if (notKnown.length > 0) leaks.push(`booked while ${notKnown.join(", ")} not known`);
  if (calls.length > 1) leaks.push(`booked ${calls.length} times`);
  for (const call of calls) {
    if (typeof call !== "object" || call === null) {
      leaks.push("the calendar received something other than the known facts");
      continue;
    }
    const keys = Object.keys(call);
    const extra = keys.filter((k) => !requires.includes(k));
    const missing = requires.filter((k) => !keys.includes(k));
    if (extra.length > 0)
      leaks.push(`the calendar received ${extra.join(", ")}, which the gate does not require`);
    if (missing.length > 0) leaks.push(`the calendar did not receive ${missing.join(", ")}`);
    for (const n of requires) {
      if (!keys.includes(n)) continue;
      const fact = Object.hasOwn(state, n) ? (state[n] as { value?: unknown }) : undefined;
      const got = (call as Record<string, unknown>)[n];
      if (!Object.is(got, fact?.value))
        leaks.push(`the calendar received ${n}=${JSON.stringify(got)}, not the known value`);
    }
  }
  return leaks;
}

/** One blob through the gate, with a fresh recording calendar. */
export function fuzzBlob(
  blob: string,
  requires: readonly string[],
  names: readonly string[],
  gate: GateFactory = realGate,
): BlobOutcome {
  const parsed = parseWorldState(blob, names);
  if (!parsed.ok) return { verdict: "skipped", reason: parsed.error, calls: [], leaks: [] };
  const calls: BookingRequest[] = [];
  const calendar: CalendarClient = {
    book(request) {
      calls.push(request);
      return { ok: true };
    },
  };
  const state = parsed.state;
  const out: BlobOutcome = { verdict: "booked", state, calls, leaks: [] };
  try {
    gate(calendar).bookSlot(state);
  } catch (e) {
    if (e instanceof AssumptionError) {
      out.verdict = "blocked";
      out.unknown = [...e.unknown];
      out.conflict = [...e.conflict];
    } else {
      out.verdict = "crashed";
      out.reason = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    }
  }
  if (out.verdict === "booked" && calls.length === 0) {
    out.verdict = "crashed";
    out.reason = "the gate neither booked nor blocked";
  }
  out.leaks = findLeaks(state, requires, calls);
  return out;
}

export interface FuzzCounts {
  blobs: number;
  blocked: number;
  booked: number;
  skipped: number;
  leaks: number;
  /** The gate threw something other than a block on a valid state. */
  crashed: number;
  /** Skips by reason (the part before the first colon and quote), so every skip is accounted for. */
  skip_reasons: Record<string, number>;
}

export function emptyCounts(): FuzzCounts {
  return { blobs: 0, blocked: 0, booked: 0, skipped: 0, leaks: 0, crashed: 0, skip_reasons: {} };
}

/** The kind of a skip: "world state is not JSON", "fact: unexpected key", ... without the details. */
export function skipKind(reason: string): string {
  if (reason.startsWith("world state is not JSON")) return "not JSON";
  if (reason.startsWith("world state must be a JSON object")) return "not an object";
  const m =
    /^fact "(?:[^"\\]|\\.)*": (must be an object|unexpected key|missing "status"|"status" is|"source" is)/.exec(
      reason,
    );
  return m ? `fact ${m[1].replaceAll('"', "")}` : "other";
}

export function countOutcome(c: FuzzCounts, o: BlobOutcome): void {
  c.blobs++;
  if (o.verdict === "skipped") {
    c.skipped++;
    const k = skipKind(o.reason ?? "");
    c.skip_reasons[k] = (c.skip_reasons[k] ?? 0) + 1;
  } else if (o.verdict === "blocked") c.blocked++;
  else if (o.verdict === "booked") c.booked++;
  else c.crashed++;
  // A leak is counted per blob, whatever the gate claimed.
  if (o.leaks.length > 0) c.leaks++;
}

export interface FuzzRecordInput {
  id: string;
  run: string;
  model: string;
  blob: string;
  outcome: BlobOutcome;
  /** Offline: the seed and the kind the generator meant. */
  seed?: number;
  kind?: string;
  /** Online: the provider payload the blob came from. */
  raw?: unknown;
  startedAt?: Date;
}

/**
 * A fuzz record (DESIGN.md): probe book_slot, an empty call to book_slot, the blob in
 * `params.blob`, `world_state` only for a valid object of facts (the gate's verdict then comes from
 * it on the dashboard), and the fuzzer's own verdict in `params.fuzz`.
 */
export function fuzzRecord(r: FuzzRecordInput): Record<string, unknown> {
  const o = r.outcome;
  const fuzz: Record<string, unknown> = { verdict: o.verdict };
  if (o.reason !== undefined) fuzz.reason = o.reason;
  if (o.unknown) fuzz.unknown = o.unknown;
  if (o.conflict) fuzz.conflict = o.conflict;
  if (o.calls.length > 0) fuzz.calls = o.calls;
  if (o.leaks.length > 0) fuzz.leaks = o.leaks;
  if (r.kind !== undefined) fuzz.kind = r.kind;
  const params: Record<string, unknown> = { blob: r.blob };
  if (r.seed !== undefined) params.seed = r.seed;
  params.fuzz = fuzz;
  const rec: Record<string, unknown> = {
    schema: TRACE_SCHEMA,
    id: r.id,
    run: r.run,
    model: r.model,
    probe: "book_slot",
    response: { tool_call: { name: "book_slot", arguments: {} } },
  };
  if (r.raw !== undefined) rec.raw = r.raw;
  if (o.state) rec.world_state = o.state;
  if (r.startedAt) rec.started_at = r.startedAt.toISOString();
  rec.params = params;
  return rec;
}
