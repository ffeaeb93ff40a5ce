import { describe, expect, it } from "vitest";
import { EMPTY_LEXICON, type Lexicon } from "../lexicon/lexicon";
import { builtinProbes } from "../probe/builtin";
import { compileProbe } from "../probe/compile";
import type { Probe } from "../probe/schema";
import { askMayChange, footprint } from "./footprint";

const probe = builtinProbes().get("schedule_window") as Probe;
const withTerm = (term: string): Lexicon => ({
  version: 1,
  entries: { timezone: { terms: [term], rule: "anywhere" } },
});
const json = (text: string) => JSON.stringify({ text, tool_calls: [], fenced: false });

describe("the footprint of a lexicon change", () => {
  it("reads a response the added term matches only once folded (İstanbul, café)", () => {
    const f = footprint(compileProbe(probe, EMPTY_LEXICON), compileProbe(probe, withTerm("istanbul")));
    expect(f).not.toBeNull();
    if (!f) return;
    expect(askMayChange(f, json("Are you in İstanbul?"))).toBe(true);
    expect(askMayChange(f, json("Are you in istanbul?"))).toBe(true);
    expect(askMayChange(f, json("Are you in Ankara?"))).toBe(false);
    const cafe = footprint(compileProbe(probe, EMPTY_LEXICON), compileProbe(probe, withTerm("cafe")));
    expect(cafe && askMayChange(cafe, json("Meet at the café?"))).toBe(true);
  });

  it("keeps the needle test for a probe's own terms, which are never folded", () => {
    const own = { ...probe, ask_terms: { timezone: ["timezone", "istanbul"] } };
    const f = footprint(compileProbe(probe), compileProbe(own));
    expect(f && askMayChange(f, json("Are you in İstanbul?"))).toBe(false);
    expect(f && askMayChange(f, json("Are you in istanbul?"))).toBe(true);
  });
});
