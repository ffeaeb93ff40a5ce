import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GATE_VERDICTS } from "../gate/decide";
import { LABELS } from "../probe/schema";
import { INJECT_REASONS, TRACE_FLAGS } from "../probe/score";
import { SIGNATURE_BITS, signatureLayout, tagBit, tagSignature, UNSIGNED_FLAGS } from "./tagSignature";
import { ANY_FIELD, tag } from "./tags";

describe("tagBit", () => {
  it("gives every flag, verdict and per-field value its own bit", () => {
    const names = [
      ...TRACE_FLAGS.filter((f) => !UNSIGNED_FLAGS.includes(f)).map(tag.flag),
      ...GATE_VERDICTS.map(tag.gate),
      ...LABELS.map((l) => tag.label(ANY_FIELD, l)),
      ...INJECT_REASONS.map((r) => tag.reason(ANY_FIELD, r)),
      tag.human(ANY_FIELD, true),
      tag.human(ANY_FIELD, false),
    ];
    const bits = names.map(tagBit);
    expect(new Set(bits).size).toBe(names.length);
  });

  it("puts a per-field tag on its any-field twin's bit, which every trace carrying it carries", () => {
    expect(tagBit(tag.label("timezone", "ASK"))).toBe(tagBit(tag.label(ANY_FIELD, "ASK")));
    expect(tagBit(tag.reason("duration", "bait"))).toBe(tagBit(tag.reason(ANY_FIELD, "bait")));
    expect(tagBit(tag.label("timezone", "ASK"))).not.toBe(tagBit(tag.humanLabel("timezone", "ASK")));
  });

  it("gives no bit to unrecognized_payload, whose tag is on nearly all of a run's traces or on few", () => {
    expect(UNSIGNED_FLAGS).toEqual(["unrecognized_payload"]);
    expect(tagBit(tag.flag("unrecognized_payload"))).toBe(-1);
    expect(tagSignature([tag.flag("unrecognized_payload"), tag.flag("unparsed_call")])).toBe(
      tagSignature([tag.flag("unparsed_call")]),
    );
    expect(tagBit(tag.flag("unparsed_call"))).toBeLessThan(tagBit(tag.gate("no_call")));
  });

  it("gives no bit to kinds no filter names", () => {
    expect(tagBit(tag.humanLabel("timezone", "ASK"))).toBe(-1);
    expect(tagBit(tag.sideEffect(ANY_FIELD, "INJECT"))).toBe(-1);
    expect(tagSignature([tag.sideEffect("timezone", "INJECT")])).toBe(0);
  });

  it("spreads probe tags over the shared bits, inside the signature's width", () => {
    const bits = new Set(Array.from({ length: 200 }, (_, i) => tagBit(tag.probe(`probe_${i}`))));
    expect(bits.size).toBeGreaterThanOrEqual(4);
    for (const b of bits) expect(b).toBeLessThan(SIGNATURE_BITS);
  });
});

describe("tagSignature", () => {
  const anyTag = fc.oneof(
    fc.constantFrom(...TRACE_FLAGS.map(tag.flag), ...GATE_VERDICTS.map(tag.gate)),
    fc.tuple(fc.string(), fc.constantFrom(...LABELS)).map(([f, l]) => tag.label(f, l)),
    fc.tuple(fc.string(), fc.constantFrom(...INJECT_REASONS)).map(([f, r]) => tag.reason(f, r)),
    fc.string().map(tag.probe),
    fc.tuple(fc.string(), fc.constantFrom(...LABELS)).map(([f, l]) => tag.humanLabel(f, l)),
  );

  it("is an unsigned 32-bit integer holding the bits of every subset of its tags", () => {
    fc.assert(
      fc.property(fc.array(anyTag, { maxLength: 30 }), fc.array(fc.nat()), (tags, picks) => {
        const sig = tagSignature(tags);
        expect(Number.isInteger(sig)).toBe(true);
        expect(sig).toBeGreaterThanOrEqual(0);
        expect(sig).toBeLessThan(2 ** SIGNATURE_BITS);
        const subset = tags.length ? picks.map((p) => tags[p % tags.length]) : [];
        const mask = BigInt(tagSignature(subset));
        expect(BigInt(sig) & mask).toBe(mask);
        for (const t of tags) if (tagBit(t) >= 0) expect((BigInt(sig) >> BigInt(tagBit(t))) & 1n).toBe(1n);
      }),
    );
  });

  it("is 0 for no tags and has one bit per distinct bit", () => {
    expect(tagSignature([])).toBe(0);
    const one = tagSignature([tag.flag("wrong_tool")]);
    expect(one).toBe(2 ** tagBit(tag.flag("wrong_tool")));
    expect(tagSignature([tag.flag("wrong_tool"), tag.flag("wrong_tool")])).toBe(one);
  });
});

describe("room for flags", () => {
  it("gives agent_step a bit of its own, and recorded agreement the shared bits", () => {
    const own = tagBit(tag.flag("agent_step"));
    expect(own).toBeGreaterThanOrEqual(0);
    expect(own).toBeLessThan(tagBit(tag.gate("no_call")));
    const shared = tagBit(tag.recorded(ANY_FIELD, true));
    expect(shared).toBeGreaterThan(tagBit(tag.human(ANY_FIELD, false)));
    expect(shared).toBeLessThan(SIGNATURE_BITS);
  });
});

describe("signatureLayout", () => {
  it("is the layout stored signatures were made with (changing it needs a migration resetting trace_tags.sig)", () => {
    expect(signatureLayout()).toBe(
      [
        "flag:ask_and_call,flag:multi_call,flag:fenced,flag:wrong_tool,flag:model_mismatch,flag:recorded_mismatch,flag:unparsed_call,flag:agent_step",
        "gate:no_call,gate:read_only,gate:fail,gate:allow,gate:block",
        "label:ASK,label:OMIT,label:COPY,label:INJECT,label:DRIFT,label:ERROR",
        "reason:hidden,reason:bait,reason:invented",
        "fieldFlag:copied_bait,fieldFlag:typed_by_user,fieldFlag:backend_default",
        "human:agree,human:disagree|shared:27-31|none:flag:unrecognized_payload",
      ].join(","),
    );
  });
});
