export const GATE_MEANING: Record<string, string> = {
  no_call: "no call was made",
  read_only: "the tool has no side effects",
  fail: "the call's arguments could not be read",
  allow: "every required fact is known",
  block: "a required fact is unknown or in conflict",
};

/** The gate verdict as a word; the title says what it means. */
export function GateBadge({ verdict, next }: { verdict: string; next?: string | null }) {
  return (
    <span
      className={`gate gate-${Object.hasOwn(GATE_MEANING, verdict) ? verdict : "no_call"}`}
      title={GATE_MEANING[verdict]}
      data-testid="gate-verdict"
    >
      {verdict.replace("_", " ")}
      {next ? ` → ${next}` : ""}
    </span>
  );
}
