const STYLE: Record<string, string> = {
  block: "text-red-800 bg-red-50 ring-red-600/30",
  allow: "text-emerald-800 bg-emerald-50 ring-emerald-600/30",
  fail: "text-slate-700 bg-slate-100 ring-slate-500/30",
  read_only: "text-sky-800 bg-sky-50 ring-sky-600/30",
  no_call: "text-slate-600 bg-white ring-slate-300",
};

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
      className={`inline-flex rounded px-1.5 py-0.5 font-mono text-xs ring-1 ring-inset ${STYLE[verdict] ?? STYLE.no_call}`}
      title={GATE_MEANING[verdict]}
      data-testid="gate-verdict"
    >
      {verdict.replace("_", " ")}
      {next ? ` → ${next}` : ""}
    </span>
  );
}
