import { Card } from "@/app/_components/Card";
import { LabelChip } from "@/app/_components/LabelChip";
import type { HistoryEntry } from "./reviewView";
import { when } from "./when";

/** Every review of the trace, newest first, per field: who, when, from which label to which, the note. */
export function ReviewHistory({ history, fields }: { history: HistoryEntry[]; fields: string[] }) {
  if (history.length === 0) return null;
  const byField = fields
    .map((f) => [f, history.filter((h) => h.field === f)] as const)
    .filter(([, h]) => h.length > 0);
  return (
    <Card title="Review history" aside={<span className="text-xs text-slate-500">newest first</span>}>
      <div className="space-y-3" data-testid="review-history">
        {byField.map(([field, rows]) => (
          <div key={field} data-testid="history-field" data-field={field}>
            <h3 className="font-mono text-xs font-semibold text-slate-700">{field}</h3>
            <ol className="mt-1 space-y-1">
              {rows.map((h) => (
                <li
                  key={h.id}
                  className="flex flex-wrap items-center gap-x-2 gap-y-0.5 border-l-2 border-slate-200 pl-2 text-xs text-slate-700"
                  data-testid="history-entry"
                  data-to={h.to ?? ""}
                >
                  <span className="font-semibold text-slate-900">{h.reviewer}</span>
                  <span className="text-slate-500">{when(h.createdAt)}</span>
                  <span className="inline-flex items-center gap-1">
                    {h.from ? <LabelChip label={h.from} /> : <span className="text-slate-400">none</span>}
                    <span aria-hidden="true">→</span>
                    <span className="sr-only">to</span>
                    {h.to ? (
                      <LabelChip label={h.to} />
                    ) : (
                      <span className="italic text-slate-600">cleared</span>
                    )}
                  </span>
                  {h.note ? (
                    <span className="basis-full text-slate-600 italic [overflow-wrap:anywhere]">
                      “{h.note}”
                    </span>
                  ) : null}
                </li>
              ))}
            </ol>
          </div>
        ))}
      </div>
    </Card>
  );
}
