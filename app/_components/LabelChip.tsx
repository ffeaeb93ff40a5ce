/** What each label means, for titles and legends. */
export const LABEL_MEANING: Record<string, string> = {
  ASK: "no call; the reply asks for the missing fact",
  OMIT: "a call that leaves the field out",
  COPY: "a value that is in the visible world",
  INJECT: "a value the model was never shown",
  DRIFT: "no call and no question about the field",
  ERROR: "the call's arguments could not be read",
};

/** A label as text in a tinted pill (`.chip` in globals.css): the word carries the meaning, the colour only helps. */
export function LabelChip({ label, field, testId }: { label: string; field?: string; testId?: string }) {
  return (
    <span
      className={`chip chip-${Object.hasOwn(LABEL_MEANING, label) ? label : "ERROR"}`}
      title={`${field ? `${field}: ` : ""}${label}: ${LABEL_MEANING[label] ?? ""}`}
      data-testid={testId}
      data-label={label}
    >
      {field ? <span>{field}</span> : null}
      {label}
    </span>
  );
}
