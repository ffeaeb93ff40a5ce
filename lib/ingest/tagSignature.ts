import { GATE_VERDICTS } from "../gate/decide";
import { LABELS } from "../probe/schema";
import { FIELD_FLAGS, INJECT_REASONS, TRACE_FLAGS } from "../probe/score";
import { AGREEMENT, parseTag, type TagKind } from "./tags";

/**
 * A trace's tag signature: one bit per kind of fact a trace can carry, stored on each of its
 * tag rows. A filter of two or more tags scans its rarest tag's rows and skips, without a lookup
 * per trace, those whose signature lacks a bit of the other tags (at a million traces: an empty
 * `wrong_tool` + `ASK` filter went from 66 ms of lookups to 4 ms of scanning).
 *
 * The vocabulary (trace flags, gate verdicts, and the values of each per-field kind) has a bit
 * of its own; a per-field tag (`l:timezone=ASK`) takes the bit of its any-field twin (`l:*=ASK`),
 * which every trace carrying it carries too; probe tags and anything else share the remaining
 * bits by a hash of the name. A signature is a necessary condition, never a sufficient one:
 * queries still check every candidate exactly.
 */

/** 52 bits: JavaScript numbers hold integers of 53 bits exactly, SQLite's bitwise `&` takes them. */
export const SIGNATURE_BITS = 52;

const VOCABULARY: Record<TagKind, readonly string[]> = {
  flag: TRACE_FLAGS,
  gate: GATE_VERDICTS,
  label: LABELS,
  reason: INJECT_REASONS,
  fieldFlag: FIELD_FLAGS,
  human: AGREEMENT,
  humanLabel: LABELS,
  recorded: AGREEMENT,
  sideEffect: LABELS,
  probe: [],
};

const vocabularyBits = new Map<string, number>();
for (const [kind, values] of Object.entries(VOCABULARY))
  for (const v of values) vocabularyBits.set(`${kind}:${v}`, vocabularyBits.size);
const FIRST_SHARED = vocabularyBits.size;
const SHARED = SIGNATURE_BITS - FIRST_SHARED;
if (SHARED < 8) throw new Error(`the tag vocabulary leaves ${SHARED} shared signature bits`);

/** FNV-1a over the name's UTF-16 units, onto the shared bits. */
function sharedBit(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return FIRST_SHARED + ((h >>> 0) % SHARED);
}

const bitCache = new Map<string, number>();

/** The signature bit of one tag name. */
export function tagBit(name: string): number {
  let bit = bitCache.get(name);
  if (bit === undefined) {
    const t = parseTag(name);
    bit = (t ? vocabularyBits.get(`${t.kind}:${t.value}`) : undefined) ?? sharedBit(name);
    // Field and probe names come from probes (When2Call has hundreds): cache a bounded number.
    if (bitCache.size < 50_000) bitCache.set(name, bit);
  }
  return bit;
}

/** The signature of a set of tags: a trace's own, or the mask a filter's tags require. */
export function tagSignature(names: Iterable<string>): number {
  // Two 26-bit halves: JavaScript's bitwise operators work on 32 bits.
  let lo = 0;
  let hi = 0;
  for (const name of names) {
    const b = tagBit(name);
    if (b < 26) lo |= 1 << b;
    else hi |= 1 << (b - 26);
  }
  return hi * 2 ** 26 + lo;
}
