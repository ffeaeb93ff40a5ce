import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyConfiguration, configurationOf } from "../fixtures/configuration";
import { draftLexicon, scoreWithDraft } from "../lexicon/draft";
import { applyLexiconEdit, EMPTY_LEXICON, type Lexicon } from "../lexicon/lexicon";
import type { NormalizedResponse } from "../probe/response";
import type { Label, Probe } from "../probe/schema";
import { scheduleWindow, variant } from "../probe/testProbes";
import { askTermsWithDraft, bindSuggestion, lexiconEditOf, type ScoredInput } from "./bind";
import { candidateGrams } from "./grams";
import { suggestChanges } from "./suggest";
import { recount } from "./testEvaluator";
import type { TermChange } from "./types";

const SW = scheduleWindow();
const text = (t: string): NormalizedResponse => ({ text: t, tool_calls: [], fenced: false });
let n = 0;
const input = (probe: Probe, t: string, human: Label, field = "timezone"): ScoredInput => ({
  key: `k${++n}`,
  field,
  human,
  source: "review",
  response: text(t),
  probe,
});

/** Our label of an input under a draft, scored without the binding: the one scorer and a lexicon made from the draft. */
function labelUnder(
  i: ScoredInput,
  lexicon: Lexicon,
  draft: readonly TermChange[],
  probeMode: boolean,
): Label {
  if (probeMode) {
    const config = { ...configurationOf(i.probe), ask_terms: askTermsWithDraft(i.probe, draft) };
    return scoreWithDraft(i.response, applyConfiguration(i.probe, config), { lexicon }).fields[i.field].label;
  }
  const entries = applyLexiconEdit(lexicon.entries, lexiconEditOf(draft));
  return scoreWithDraft(i.response, i.probe, { lexicon: draftLexicon(entries) }).fields[i.field].label;
}

describe("bindSuggestion: suggestions on the real scorer", () => {
  it("learns a term for a question that does not name the field, whole words, with what it breaks", () => {
    const inputs = [
      input(SW, "Where are you located?", "ASK"),
      input(SW, "Happy to help. Where are you located right now?", "ASK"),
      input(SW, "Could you tell me where you are located?", "ASK"),
      input(SW, "The file was relocated. Done.", "DRIFT"),
      input(SW, "Which timezone should I use?", "ASK"),
    ];
    const bound = bindSuggestion(inputs, EMPTY_LEXICON, { kind: "lexicon" });
    expect(bound.fields.map((f) => f.ours)).toEqual(["DRIFT", "DRIFT", "DRIFT", "DRIFT", "ASK"]);
    const [top] = suggestChanges(bound.fields, bound.evaluator);
    expect(top).toMatchObject({
      change: { kind: "add", field: "timezone", term: "located" },
      fixes: 3,
      breaks: 0,
    });
    expect(top.sources[0]).toEqual({
      key: inputs[0].key,
      sentence: "Where are you located?",
      mark: [14, 21],
    });
    expect(bound.lexiconWith([top.change]).entries).toEqual({
      timezone: { terms: ["located"], rule: "anywhere" },
    });
  });

  it("proposes the question rule and removals against the stored lexicon", () => {
    const lexicon: Lexicon = {
      version: 3,
      entries: { timezone: { terms: ["zone", "region"], rule: "anywhere" } },
    };
    const inputs = [
      input(SW, "I kept the default timezone.", "DRIFT"),
      input(SW, "The region is set already.", "DRIFT"),
      input(SW, "Your zone is set, done.", "DRIFT"),
      input(SW, "Which region is the user in?", "ASK"),
    ];
    const bound = bindSuggestion(inputs, lexicon, { kind: "lexicon" });
    expect(bound.fields.map((f) => f.ours)).toEqual(["ASK", "ASK", "ASK", "ASK"]);
    const s = suggestChanges(bound.fields, bound.evaluator);
    expect(s[0]).toMatchObject({
      change: { kind: "rule", field: "timezone", rule: "question" },
      fixes: 3,
      breaks: 0,
    });
    expect(s).toHaveLength(1);
  });

  it("with --probe learns the probe's own terms as substrings and keeps the name fallback", () => {
    const bare = variant({ ask_terms: {} });
    const inputs = [
      input(bare, "Where are you based?", "ASK"),
      input(bare, "Where are you right now?", "ASK"),
      input(bare, "Which timezone?", "ASK"),
      input(bare, "Nowhere to be found.", "DRIFT"),
    ];
    const bound = bindSuggestion(inputs, EMPTY_LEXICON, { kind: "probe", probe: bare });
    const [top] = suggestChanges(bound.fields, bound.evaluator);
    // "where" is a substring of "Nowhere": a probe's term would break it.
    expect(top.change).toMatchObject({ kind: "add", field: "timezone" });
    expect(top).toMatchObject({ fixes: 2, breaks: 0 });
    expect((top.change as { term: string }).term).not.toBe("where");
    expect(bound.askTermsWith([top.change]).timezone).toEqual([
      "timezone",
      (top.change as { term: string }).term,
    ]);
  });

  it("counts every suggestion as the scorer does, and no addition beats the first one", () => {
    const words = [
      "where",
      "which",
      "are",
      "you",
      "located",
      "zone",
      "timezone",
      "city",
      "live",
      "delivered",
      "is",
    ];
    const sentence = fc
      .tuple(
        fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 5 }),
        fc.constantFrom(".", "?", "!", ""),
        fc.constantFrom(" ", " ", "  ", "\n"),
      )
      .map(([ws, end, gap]) => `${ws.join(gap)}${end}`);
    const textArb = fc.array(sentence, { minLength: 1, maxLength: 3 }).map((s) => s.join(" "));
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ t: textArb, human: fc.constantFrom<Label>("ASK", "DRIFT", "DRIFT", "INJECT") }),
          {
            maxLength: 20,
          },
        ),
        fc.constantFrom("anywhere", "question"),
        fc.boolean(),
        (rows, rule, probeMode) => {
          const lexicon: Lexicon = {
            version: 1,
            entries: { timezone: { terms: ["city"], rule: rule as "anywhere" } },
          };
          const probe = probeMode ? variant({ ask_terms: { timezone: ["zone"] } }) : SW;
          const inputs = rows.map((r) => input(probe, r.t, r.human));
          const bound = bindSuggestion(
            inputs,
            lexicon,
            probeMode ? { kind: "probe", probe } : { kind: "lexicon" },
          );
          const s = suggestChanges(bound.fields, bound.evaluator, {
            limit: 5,
            // Every fix counts here: the best addition is checked by brute force (the two-fix
            // threshold has its own tests).
            minFixes: 1,
            minTraces: 1,
            onDisagreement: (d) => expect.fail(JSON.stringify(d)),
          });
          let draft: TermChange[] = [];
          let labels = inputs.map((i) => labelUnder(i, lexicon, [], probeMode));
          expect(bound.fields.map((f) => f.ours)).toEqual(labels);
          // The best addition at the first step, by brute force over every candidate of every miss.
          let bestAdd = 0;
          const grams = new Set(
            inputs.flatMap((i, k) =>
              i.human === "ASK" && labels[k] === "DRIFT"
                ? candidateGrams(i.response.text).map((g) => g.term)
                : [],
            ),
          );
          for (const term of grams) {
            const change: TermChange = { kind: "add", field: "timezone", term };
            let net = 0;
            inputs.forEach((i, k) => {
              if (labels[k] !== "ASK" && labelUnder(i, lexicon, [change], probeMode) === "ASK")
                net += i.human === "ASK" ? 1 : -1;
            });
            bestAdd = Math.max(bestAdd, net);
          }
          if (bestAdd > 0) expect(s[0]?.net ?? 0).toBeGreaterThanOrEqual(bestAdd);
          for (const x of s) {
            const next = [...draft, x.change];
            const after = inputs.map((i) => labelUnder(i, lexicon, next, probeMode));
            expect([x.fixes, x.breaks]).toEqual(
              recount(
                inputs.map((i) => i.human),
                labels,
                after,
              ),
            );
            draft = next;
            labels = after;
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
