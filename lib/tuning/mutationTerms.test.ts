import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AskRule, Lexicon } from "../lexicon/lexicon";
import { builtinProbes } from "../probe/builtin";
import { compileProbe } from "../probe/compile";
import type { NormalizedResponse } from "../probe/response";
import type { Probe } from "../probe/schema";
import { scoreTrace } from "../probe/score";
import { termsItNeeds } from "./mutation";

const base = builtinProbes().get("schedule_window") as Probe;
const words = ["zone", "Zone", "which zone", "time", "region", "reg*", "timezone", "where", "tz"];

const labelOf = (probe: Probe, lexicon: Lexicon, response: NormalizedResponse, field: string) =>
  scoreTrace({ response }, compileProbe(probe, lexicon)).fields[field]?.label;

/** The terms whose removal alone changes the label, found the slow way: a compile per term. */
function bruteForce(probe: Probe, lexicon: Lexicon, response: NormalizedResponse, field: string) {
  const now = labelOf(probe, lexicon, response, field);
  const declared = probe.ask_terms[field] ?? [];
  const probeTerms = [...new Set(declared)].filter((t) => {
    const ask_terms = { ...probe.ask_terms, [field]: declared.filter((x) => x !== t) };
    return labelOf({ ...probe, ask_terms }, lexicon, response, field) !== now;
  });
  const entry = lexicon.entries[field];
  const lexiconTerms = (entry?.terms ?? []).filter((t) => {
    const entries = { ...lexicon.entries, [field]: { ...entry, terms: entry.terms.filter((x) => x !== t) } };
    return labelOf(probe, { version: -1, entries }, response, field) !== now;
  });
  return { probe: probeTerms.sort(), lexicon: lexiconTerms.sort() };
}

describe("termsItNeeds: the mutation check without a compile per term", () => {
  it("gives exactly the terms whose removal alone changes the label (question rule, fallback, clarify call)", () => {
    const text = fc.array(fc.constantFrom(...words, "?", ". ", "what is the", "please", "the"), {
      maxLength: 6,
    });
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...words.filter((w) => !w.endsWith("*"))), { maxLength: 3 }),
        fc.array(fc.constantFrom(...words.map((w) => w.toLowerCase())), { maxLength: 3 }),
        fc.array(fc.constantFrom(...words.map((w) => w.toLowerCase())), { maxLength: 2 }),
        fc.constantFrom<AskRule>("anywhere", "question"),
        fc.boolean(),
        text,
        fc.array(fc.constantFrom(...words, "severity", "when"), { maxLength: 2 }),
        fc.constantFrom("timezone", "severity"),
        (declared, lexTerms, otherLex, rule, clarifyCall, parts, args, field) => {
          const probe: Probe = {
            ...base,
            ask_terms: declared.length > 0 ? { timezone: declared, severity: ["urgen"] } : {},
            clarify_tool: "ask_user",
          };
          const lexicon: Lexicon = {
            version: -1,
            entries: {
              timezone: { terms: [...new Set(lexTerms)].sort(), rule },
              severity: { terms: [...new Set(otherLex)].sort(), rule: "anywhere" },
            },
          };
          const response: NormalizedResponse = {
            text: parts.join(" "),
            tool_calls: clarifyCall ? [{ name: "ask_user", arguments: { question: args.join(" ") } }] : [],
            fenced: false,
          };
          const got = termsItNeeds(compileProbe(probe, lexicon), response, field);
          expect({ probe: [...got.probe].sort(), lexicon: [...got.lexicon].sort() }).toEqual(
            bruteForce(probe, lexicon, response, field),
          );
        },
      ),
      { numRuns: 400 },
    );
  });
});
