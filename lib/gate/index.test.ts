import { expect, it } from "vitest";
import * as gate from "./index";

it("re-exports the gate's runtime API from one place, and no raw calendar client", () => {
  expect(Object.keys(gate).sort()).toEqual([
    "AssumptionError",
    "DECISION_TABLE",
    "FactSchema",
    "FactStatusSchema",
    "WorldStateSchema",
    "createGatedCalendar",
    "decideGate",
    "fact",
    "fuzzWorldStates",
    "isUsable",
    "nextStep",
    "parseWorldState",
    "requireKnown",
    "sideEffect",
  ]);
});
