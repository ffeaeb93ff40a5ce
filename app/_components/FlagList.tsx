export const FLAG_MEANING: Record<string, string> = {
  ask_and_call: "the model asked and called in the same turn",
  multi_call: "more than one call (only the first is scored)",
  fenced: "the call was recovered from a fenced JSON block in the text",
  wrong_tool: "the call went to another tool than the probe's",
  model_mismatch: "the payload names another model than the run's pinned one",
  recorded_mismatch: "the harness recorded another label than ours",
  unparsed_call:
    "no call was taken, but the text holds call-like JSON naming the tool or a field: its keys may read as ask terms",
  unrecognized_payload: "the raw payload is in no format the parser knows: no call could be looked for",
  copied_bait: "a copied value that is also bait: visible includes poisoned visible",
  typed_by_user: "the user typed it, the tokenizer missed it",
  backend_default: "the call omitted it and the backend filled it",
  agent_step:
    "another generation of this agent turn counts in the rates (the first calling the probe's tool, else the last): this one is shown, not counted",
  gate_mismatch:
    "our gate, re-run on the recorded world state and call, decides otherwise than the agent's gate did",
};

/** Flags as small outlined words, with their meaning on hover. */
export function FlagList({ flags }: { flags: readonly string[] }) {
  if (flags.length === 0) return <span className="text-slate-400">—</span>;
  return (
    <span className="flex flex-wrap gap-1">
      {flags.map((f) => (
        <span key={f} className="flag" title={FLAG_MEANING[f]} data-testid="flag">
          {f}
        </span>
      ))}
    </span>
  );
}
