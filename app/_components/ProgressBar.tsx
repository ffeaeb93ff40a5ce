/** A background job's progress bar (a bulk relabel, a bulk add to a fixture set): `done` of `total`. */
export function ProgressBar({ done, total }: { done: number; total: number }) {
  const pct = total > 0 ? Math.min(100, Math.round((100 * done) / total)) : 100;
  return (
    <div className="mt-2 h-2 overflow-hidden rounded bg-slate-100" aria-hidden="true">
      <div className="h-full bg-indigo-600 transition-[width]" style={{ width: `${pct}%` }} />
    </div>
  );
}
