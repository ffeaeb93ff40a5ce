"use client";

/** A draft's changes in words, with "undo all" while there are any (the tuning editors' footer). */
export function DraftChanges({
  text,
  dirty,
  onReset,
}: {
  text: string;
  dirty: boolean;
  onReset: () => void;
}) {
  return (
    <div className="min-w-0 text-xs text-slate-600">
      <span className="font-medium">Changes: </span>
      <span className="font-mono [overflow-wrap:anywhere]" data-testid="draft-changes">
        {text}
      </span>
      {dirty ? (
        <button
          type="button"
          onClick={onReset}
          className="ml-2 text-slate-700 underline"
          data-testid="reset-draft"
        >
          undo all
        </button>
      ) : null}
    </div>
  );
}
