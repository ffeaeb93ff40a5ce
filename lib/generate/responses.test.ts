/**
 * The generated responses say what they claim: dressed in each provider payload they can travel
 * in, each kind gets from the one scorer the labels it expects. The demo data's and the
 * benchmarks' figures rest on this (a kind that drifted from the rules would skew both).
 */
import { describe, expect, it } from "vitest";
import { builtinProbes } from "../probe/builtin";
import { normalizePayload } from "../probe/normalize";
import { scoreTrace } from "../probe/score";
import { anthropicPayload, chatPayload, responsesPayload, type Shape } from "./payloads";
import { type BrokenArgs, makeResponse, RESPONSE_KINDS, type ResponseCase } from "./responses";
import { Rng } from "./rng";

const probe = builtinProbes().get("schedule_window");
if (!probe) throw new Error("schedule_window is a built-in probe");

const SEVERITY = [
  [undefined, 2],
  ["P3", 1],
  ["medium", 1],
] as const;

function dress(c: ResponseCase, shape: Shape, rng: Rng): unknown {
  if (shape === "chat") return chatPayload(c, "m", 1_790_000_000, rng);
  if (shape === "responses") return responsesPayload(c, "m", 1_790_000_000, 512, rng);
  return anthropicPayload(c, "m", rng);
}

/** Where a response can travel: a fenced call is chat text; broken arguments travel as text. */
function shapesFor(c: ResponseCase): Shape[] {
  if (c.fence) return ["chat"];
  if (c.calls.some((k) => typeof k.args === "string")) return ["chat", "responses"];
  return ["chat", "responses", "anthropic"];
}

describe("makeResponse", () => {
  const BROKEN: BrokenArgs[] = ["none", "truncated", "python", "tag_leak"];

  it.each(RESPONSE_KINDS)("%s gets the labels it expects, in every payload it travels in", (kind) => {
    const rng = new Rng(`responses-${kind}`);
    let scored = 0;
    for (let i = 0; i < 40; i++) {
      const c = makeResponse(kind, rng, SEVERITY, BROKEN[i % BROKEN.length]);
      expect(c.kind).toBe(kind);
      for (const shape of shapesFor(c)) {
        const response = normalizePayload(dress(c, shape, rng));
        const s = scoreTrace(
          {
            response,
            world_state: c.world_state as never,
            side_effect: c.side_effect,
          },
          probe,
        );
        const got = { timezone: s.fields.timezone.label, severity: s.fields.severity.label };
        expect({ kind, shape, i, ...got }).toEqual({ kind, shape, i, ...c.expect });
        scored++;
      }
    }
    expect(scored).toBeGreaterThanOrEqual(40);
  });

  it("draws the same response from the same seed, and another from another", () => {
    const draw = (seed: string) => {
      const rng = new Rng(seed);
      return RESPONSE_KINDS.map((k) =>
        JSON.stringify(chatPayload(makeResponse(k, rng, SEVERITY, "none"), "m", 0, rng)),
      );
    };
    expect(draw("a")).toEqual(draw("a"));
    expect(draw("a")).not.toEqual(draw("b"));
  });
});
