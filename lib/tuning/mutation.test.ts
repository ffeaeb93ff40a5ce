import { describe, expect, it } from "vitest";
import { configurationOf, type ProbeConfiguration } from "../fixtures/configuration";
import { compileFixtureProbe, scoreFixture } from "../fixtures/score";
import { seedFixtures } from "../fixtures/seed";
import { builtinProbes } from "../probe/builtin";
import { normalizeExplicit } from "../probe/normalize";
import type { NormalizedResponse } from "../probe/response";
import type { Probe } from "../probe/schema";
import {
  describeMutant,
  lexiconMutants,
  type Mutant,
  mutationCheck,
  probeMutants,
  termsItNeeds,
  touches,
} from "./mutation";

const probe = builtinProbes().get("schedule_window") as Probe;
const response = (t: Record<string, unknown>) => normalizeExplicit(t) as NormalizedResponse;

/** A configuration with one probe part taken out, scored by the one scorer. */
function without(config: ProbeConfiguration, m: Mutant): ProbeConfiguration {
  if (m.kind === "clarify_tool") return { ...config, clarify_tool: null };
  if (m.kind !== "probe_term") return config;
  const terms = (config.ask_terms[m.field] ?? []).filter((t) => t !== m.term);
  return { ...config, ask_terms: { ...config.ask_terms, [m.field]: terms } };
}

describe("mutationCheck with the real scorer", () => {
  const config: ProbeConfiguration = { ...configurationOf(probe), clarify_tool: "ask_user" };
  const cases = [
    ...seedFixtures(probe).map((s, i) => ({ ...s, name: `seed${i + 1}` })),
    {
      world: seedFixtures(probe)[0].world,
      response: response({ text: "Which zone is the user in?" }),
      field: "timezone",
      expected: "ASK" as const,
      note: "",
      name: "which-zone",
    },
    {
      world: seedFixtures(probe)[0].world,
      response: response({ tool_call: { name: "ask_user", arguments: { question: "Where are you?" } } }),
      field: "severity",
      expected: "ASK" as const,
      note: "",
      name: "clarify",
    },
  ];
  const fixtures = cases.map((c) => ({ ...c, probe: probe.id, passes: scoreFixture(c, config).passed }));

  it("names the fixtures that fail without each term and the clarify tool, and the dead terms", () => {
    expect(fixtures.every((f) => f.passes)).toBe(true);
    const mutants = probeMutants({ id: probe.id, ...config });
    expect(mutants.map(describeMutant)).toEqual([
      'timezone="timezone"',
      'timezone="time zone"',
      'timezone="which zone"',
      "clarify tool ask_user",
    ]);
    const clarify = mutants[mutants.length - 1];
    const results = mutationCheck(mutants, fixtures, (f) => [
      ...termsItNeeds(compileFixtureProbe(f.world, config), f.response, f.field).probe.map(
        (term): Mutant => ({ kind: "probe_term", probe: probe.id, field: f.field, term }),
      ),
      ...(scoreFixture(f, without(config, clarify)).passed ? [] : [clarify]),
    ]);
    const needed = Object.fromEntries(
      results.map((r) => [describeMutant(r.mutant), r.needed.map((f) => f.name)]),
    );
    expect(needed).toEqual({
      'timezone="timezone"': ["seed1"],
      'timezone="time zone"': [],
      'timezone="which zone"': ["which-zone"],
      "clarify tool ask_user": ["clarify"],
    });
    expect(results.filter((r) => r.dead).map((r) => describeMutant(r.mutant))).toEqual([
      'timezone="time zone"',
    ]);
  });

  it("does not count a fixture that already fails", () => {
    const failing = { ...fixtures[4], expected: "DRIFT" as const, passes: false };
    const [r] = mutationCheck(
      [{ kind: "probe_term", probe: probe.id, field: "timezone", term: "which zone" }],
      [failing],
      () => [{ kind: "probe_term", probe: probe.id, field: "timezone", term: "which zone" }],
    );
    expect(r.needed).toEqual([]);
    expect(r.dead).toBe(true);
  });
});

describe("touches", () => {
  const f = { probe: "p", field: "city", passes: true };
  it("ties a lexicon term to its field in every probe, a probe term to its probe and field", () => {
    expect(touches({ kind: "lexicon_term", field: "city", term: "town" }, f)).toBe(true);
    expect(touches({ kind: "lexicon_term", field: "zone", term: "town" }, f)).toBe(false);
    expect(touches({ kind: "probe_term", probe: "q", field: "city", term: "town" }, f)).toBe(false);
    expect(touches({ kind: "probe_term", probe: "p", field: "city", term: "town" }, f)).toBe(true);
    expect(touches({ kind: "clarify_tool", probe: "p", tool: "ask" }, f)).toBe(true);
  });

  it("lists the lexicon's terms field by field", () => {
    expect(
      lexiconMutants({ zone: { terms: ["tz"] }, city: { terms: ["town", "place"] } }).map(describeMutant),
    ).toEqual(['city="town"', 'city="place"', 'zone="tz"']);
  });
});
