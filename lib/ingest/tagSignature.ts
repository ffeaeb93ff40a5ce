import { GATE_VERDICTS } from "../gate/decide";
import { LABELS } from "../probe/schema";
import { FIELD_FLAGS, INJECT_REASONS, TRACE_FLAGS } from "../probe/score";
import { AGREEMENT, parseTag, type TagKind } from "./tags";

/**
 * A trace's tag signature: one bit per kind of fact the run page filters by, stored on each of
 * the trace's tag rows. A filter of two or more tags scans its rarest tag's rows and skips,
 * without a lookup per trace, those whose signature lacks a bit of the other tags (at a million
 * traces: an empty `wrong_tool` + `ASK` filter went from 66 ms of lookups to 6 ms of scanning).
 *
 * The vocabulary (trace flags, gate verdicts, and the values of each per-field kind a filter
 * names) has a bit of its own; a per-field tag (`l:timezone=ASK`) takes the bit of its any-field
 * twin (`l:*=ASK`), which every trace carrying it carries too; probe tags share the remaining
 * bits by a hash of the name; kinds no filter names (a human's own label, the side effect's
 * label) have none. A signature is a necessary condition, never a sufficient one: queries still
 * check every candidate exactly.
 */

/**
 * 32 bits, so the writer can send a tag row's trace id and signature as one 64-bit integer
 * (`id * 2^32 + sig`): SQLite unpacks it with shifts, far cheaper than a JSON pair per row.
 */
export const SIGNATURE_BITS = 32;

/**
 * Trace flags that get no bit. A bit only helps a filter of two or more tags in which its tag is
 * not the rarest: `unrecognized_payload` is a payload format's, so a run has it on nearly every
 * trace (a bit would skip nothing) or on a few (it is then the rarest tag, whose rows are the
 * ones scanned). Its tag rows carry the signature like every other row; the flag adds no bit.
 */
export const UNSIGNED_FLAGS: readonly string[] = ["unrecognized_payload"];

const VOCABULARY: Record<TagKind, readonly string[] | null> = {
  flag: TRACE_FLAGS.filter((f) => !UNSIGNED_FLAGS.includes(f)),
  gate: GATE_VERDICTS,
  label: LABELS,
  reason: INJECT_REASONS,
  fieldFlag: FIELD_FLAGS,
  human: AGREEMENT,
  // A harness's recorded labels are rare and rarely combined with another tag: their tags share
  // the hashed bits with the probes', leaving room for flags (`agent_step` took the pair's bits).
  recorded: [],
  probe: [],
  // A gate-log run's tool and blocking facts are counted per run, never combined in a filter.
  tool: null,
  gateUnknown: null,
  gateConflict: null,
  // No combined filter needs these: a human label or a review kind drives its own scan (or is
  // checked exactly after the others), so they take none of the few bits left.
  humanLabel: null,
  sideEffect: null,
  review: null,
  // The agreement counts and the review queue read their own ranges and counts, never a filter.
  humanPair: null,
  queue: null,
  queueProbe: null,
  queueDone: null,
};

const vocabularyBits = new Map<string, number>();
for (const [kind, values] of Object.entries(VOCABULARY))
  for (const v of values ?? []) vocabularyBits.set(`${kind}:${v}`, vocabularyBits.size);
const FIRST_SHARED = vocabularyBits.size;
const SHARED = SIGNATURE_BITS - FIRST_SHARED;
if (SHARED < 4) throw new Error(`the tag vocabulary leaves ${SHARED} shared signature bits`);

/**
 * The bit layout, as text. Stored signatures were made with it: a change (a new flag, a new
 * verdict) must come with a migration that sets `trace_tags.sig` back to -1, or filters would
 * skip traces they match. tagSignature.test.ts pins it so the change cannot go unnoticed.
 */
export function signatureLayout(): string {
  const none = UNSIGNED_FLAGS.map((f) => `flag:${f}`).join(",");
  return `${[...vocabularyBits.keys()].join(",")}|shared:${FIRST_SHARED}-${SIGNATURE_BITS - 1}|none:${none}`;
}

/** FNV-1a over the name's UTF-16 units, onto the shared bits. */
function sharedBit(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return FIRST_SHARED + ((h >>> 0) % SHARED);
}

const bitCache = new Map<string, number>();

/** The signature bit of one tag name, or -1 for a kind no filter names. */
export function tagBit(name: string): number {
  let bit = bitCache.get(name);
  if (bit === undefined) {
    const t = parseTag(name);
    if (t && (VOCABULARY[t.kind] === null || (t.kind === "flag" && UNSIGNED_FLAGS.includes(t.value))))
      bit = -1;
    else bit = (t ? vocabularyBits.get(`${t.kind}:${t.value}`) : undefined) ?? sharedBit(name);
    // Field and probe names come from probes (When2Call has hundreds): cache a bounded number.
    if (bitCache.size < 50_000) bitCache.set(name, bit);
  }
  return bit;
}

/** The signature of a set of tags (an unsigned 32-bit integer): a trace's own, or the mask a filter's tags require. */
export function tagSignature(names: Iterable<string>): number {
  let sig = 0;
  for (const name of names) {
    const b = tagBit(name);
    if (b >= 0) sig |= 1 << b;
  }
  return sig >>> 0;
}

/** The largest trace id whose tag rows can carry a signature (see SIGNATURE_BITS). */
export const MAX_SIGNED_TRACE_ID = 2 ** 31 - 1;

/**
 * A tag row's trace id and signature as one integer, in decimal, for the writer's JSON array; a
 * trace id past MAX_SIGNED_TRACE_ID comes negated, without its signature (the row keeps -1).
 */
export function packTagRow(traceId: number, sig: number): string {
  if (traceId > MAX_SIGNED_TRACE_ID) return String(-traceId);
  return ((BigInt(traceId) << 32n) | BigInt(sig)).toString();
}
