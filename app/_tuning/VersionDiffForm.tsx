/** The tuning pages' "compare version A with version B" form (a GET to the same page, `from` and `to`). */
export function VersionDiffForm({
  action,
  min,
  max,
  from,
  to,
}: {
  /** The page to ask; the current one when omitted. */
  action?: string;
  min: number;
  max: number;
  from: number;
  to: number;
}) {
  return (
    <form method="get" action={action} className="mt-3 flex flex-wrap items-end gap-2 text-sm" id="diff">
      <VersionField label="Compare version" name="from" value={from} min={min} max={max} />
      <VersionField label="with version" name="to" value={to} min={min} max={max} />
      <button type="submit" className="rounded border border-slate-300 bg-white px-2 py-1 hover:bg-slate-50">
        Diff
      </button>
    </form>
  );
}

function VersionField({
  label,
  name,
  value,
  min,
  max,
}: {
  label: string;
  name: string;
  value: number;
  min: number;
  max: number;
}) {
  return (
    <label className="flex flex-col text-xs text-slate-600">
      {label}
      <input
        name={name}
        type="number"
        min={min}
        max={max}
        defaultValue={value}
        className="mt-1 w-20 rounded border border-slate-300 px-2 py-1 text-sm"
      />
    </label>
  );
}
