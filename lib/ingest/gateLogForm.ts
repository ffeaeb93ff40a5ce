// The names a gate-log run is stored and filtered by, without the ingest's Node parts, so the run
// page's filter contract (lib/traceFilter.ts) can import them. The reading is in gateLog.ts.

/** The `form` of a trace read from a decision record; the run it is in is a gate-log run. */
export const GATE_LOG_FORM = "gate_log";

/** What a run holds: traces scored with probes, or decisions of a gate in the user's own agent. */
export const RUN_KINDS = ["probe", "gate_log"] as const;
export type RunKind = (typeof RUN_KINDS)[number];

/** The kind of run a trace of this form belongs in. */
export function runKindOfForm(form: string): RunKind {
  return form === GATE_LOG_FORM ? "gate_log" : "probe";
}

/**
 * The probe id gate-log traces are stored and counted under. It is not a probe id (those have no
 * slash), so no probe can own them and nothing re-scores them with one.
 */
export const GATE_LOG_PROBE = "assumeprobe/gate";

/** The flag of a decision our gate, re-run on the recorded state and call, decides otherwise. */
export const GATE_MISMATCH = "gate_mismatch";

/** The run page's gate filter on a gate-log run: the recorded verdict, or the decisions our gate decides otherwise. */
export const GATE_LOG_FILTERS = ["allow", "block", "mismatch"] as const;
