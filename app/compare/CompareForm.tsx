/** Two runs to compare, as a plain GET form to /compare (it works without JavaScript). */
export function CompareForm({
  runs,
  defaults,
  framed = true,
  titled = true,
}: {
  runs: string[];
  defaults: { a?: string; b?: string };
  framed?: boolean;
  /** Say "Compare two runs" in the form (not where the page's heading already does). */
  titled?: boolean;
}) {
  if (runs.length === 0) return null;
  const select =
    "mt-1 w-full min-w-0 rounded border border-slate-300 bg-white px-2 py-1 font-mono text-sm text-slate-900";
  return (
    <form
      method="get"
      action="/compare"
      className={`flex flex-wrap items-end gap-2 text-xs text-slate-600 ${framed ? "rounded-lg border border-slate-200 bg-white p-3" : ""}`}
      data-testid="compare-form"
    >
      {titled ? (
        <span className="mr-2 self-center text-sm font-medium text-slate-800">Compare two runs</span>
      ) : null}
      <label className="flex w-full min-w-0 flex-col sm:w-80">
        Before
        <select name="a" defaultValue={defaults.a ?? runs[1] ?? runs[0]} className={select}>
          {runs.map((r) => (
            <option key={r}>{r}</option>
          ))}
        </select>
      </label>
      <label className="flex w-full min-w-0 flex-col sm:w-80">
        After
        <select name="b" defaultValue={defaults.b ?? runs[0]} className={select}>
          {runs.map((r) => (
            <option key={r}>{r}</option>
          ))}
        </select>
      </label>
      <button type="submit" className="rounded bg-slate-900 px-3 py-1.5 text-sm text-white">
        Compare
      </button>
    </form>
  );
}

/**
 * The morning-after comparison: the newest run against the previous run of the same model that
 * probed the same probes (a run of another probe is a different question, not last night's
 * answer), else of the same model, else the two newest runs.
 */
export function compareDefaults(
  runs: { name: string; model: string | null; probes?: { id: string }[] }[],
): { a: string; b: string } | null {
  const probeKey = (r: (typeof runs)[number]) =>
    (r.probes ?? [])
      .map((p) => p.id)
      .sort()
      .join("\u0000");
  for (const sameProbes of [true, false])
    for (let i = 0; i < runs.length; i++) {
      const prev = runs
        .slice(i + 1)
        .find((r) => r.model === runs[i].model && (!sameProbes || probeKey(r) === probeKey(runs[i])));
      if (prev) return { a: prev.name, b: runs[i].name };
    }
  return runs.length >= 2 ? { a: runs[1].name, b: runs[0].name } : null;
}
