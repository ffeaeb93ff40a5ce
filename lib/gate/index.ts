export { type BookingRequest, type CalendarClient, createGatedCalendar } from "./calendar";
export { decideGate, type GateInput, type GateNext, type GateResult, type GateVerdict } from "./decide";
export {
  DECISION_TABLE,
  type DecisionRow,
  type DecisionTableRow,
  type NextStep,
  nextStep,
  type Situation,
} from "./decisionTable";
export {
  type Fact,
  FactSchema,
  type FactStatus,
  FactStatusSchema,
  fact,
  isUsable,
  type WorldState,
  WorldStateSchema,
} from "./facts";
export { AssumptionError, requireKnown } from "./requireKnown";
export { sideEffect } from "./sideEffect";
export { type FuzzResult, fuzzWorldStates, type ParseResult, parseWorldState } from "./worldState";
