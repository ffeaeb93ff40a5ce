import { expect, it } from "vitest";
import * as gate from "./index";

it("exports the gate's public API from one place: no schema library, no fuzzer, no raw calendar client", () => {
  expect(Object.keys(gate).sort()).toEqual([
    "AssumptionError",
    "DECISION_TABLE",
    "FACT_STATUSES",
    "GATE_LOG_SCHEMA",
    "GATE_VERDICTS",
    "decideGate",
    "fact",
    "isUsable",
    "nextStep",
    "parseWorldState",
    "redactDecision",
    "requireKnown",
    "sideEffect",
  ]);
});
