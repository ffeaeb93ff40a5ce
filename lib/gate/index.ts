// The package's `assumeprobe/gate` entry (built by scripts/build-gate.js): the same code the scorer and the
// fuzzer import from the files below. Everything reachable from here must stay free of packages and of
// Node-only APIs, so the built file runs anywhere JavaScript does.
export {
  decideGate,
  GATE_VERDICTS,
  type GateInput,
  type GateNext,
  type GateResult,
  type GateVerdict,
} from "./decide";
export {
  type DecisionSink,
  GATE_LOG_SCHEMA,
  type GateDecisionRecord,
  type LoggedFact,
  redactDecision,
} from "./decisionLog";
export {
  DECISION_TABLE,
  type DecisionRow,
  type DecisionTableRow,
  type NextStep,
  nextStep,
  type Situation,
} from "./decisionTable";
export { FACT_STATUSES, type Fact, type FactStatus, fact, isUsable, type WorldState } from "./facts";
export { AssumptionError, requireKnown } from "./requireKnown";
export { type SideEffectOptions, sideEffect } from "./sideEffect";
export { type ParseResult, parseWorldState } from "./worldState";
