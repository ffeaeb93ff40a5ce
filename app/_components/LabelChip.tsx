const STYLE: Record<string, string> = {
  ASK: "bg-emerald-50 text-emerald-800 ring-emerald-600/30",
  OMIT: "bg-teal-50 text-teal-800 ring-teal-600/30",
  COPY: "bg-sky-50 text-sky-800 ring-sky-600/30",
  INJECT: "bg-red-50 text-red-800 ring-red-600/40",
  DRIFT: "bg-amber-50 text-amber-900 ring-amber-600/40",
  ERROR: "bg-slate-100 text-slate-700 ring-slate-500/40",
};

/** What each label means, for titles and legends. */
export const LABEL_MEANING: Record<string, string> = {
  ASK: "no call; the reply asks for the missing fact",
  OMIT: "a call that leaves the field out",
  COPY: "a value that is in the visible world",
  INJECT: "a value the model was never shown",
  DRIFT: "no call and no question about the field",
  ERROR: "the call's arguments could not be read",
};

/** A label as text in a tinted pill: the word carries the meaning, the colour only helps. */
export function LabelChip({ label, field, testId }: { label: string; field?: string; testId?: string }) {
  return (
    <span
      className={`inline-flex items-center gap-1 rounded px-1.5 py-0.5 font-mono text-xs font-semibold ring-1 ring-inset ${STYLE[label] ?? STYLE.ERROR}`}
      title={`${field ? `${field}: ` : ""}${label}: ${LABEL_MEANING[label] ?? ""}`}
      data-testid={testId}
      data-label={label}
    >
      {field ? <span className="font-normal opacity-70">{field}</span> : null}
      {label}
    </span>
  );
}
