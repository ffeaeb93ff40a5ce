import Link from "next/link";
import { getDb } from "@/db/client";
import { listRunSummaries, runFacets } from "@/db/queries/runs";
import { AgreementLines } from "./_overview/AgreementLines";
import { EmptyState } from "./_overview/EmptyState";
import { RunsTable, shownFields } from "./_overview/RunsTable";
import { TrendChart } from "./_overview/TrendChart";
import { trendsByModel } from "./_overview/trend";

export const metadata = { title: "Runs" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const SORTS = {
  date: "newest first",
  inject: "INJECT rate, highest first",
  model: "model",
  name: "name",
} as const;
type Sort = keyof typeof SORTS;

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;

export default async function RunsOverview({ searchParams }: Props) {
  const sp = await searchParams;
  const model = one(sp.model);
  const probe = one(sp.probe);
  const sortParam = one(sp.sort);
  const sort: Sort = sortParam && sortParam in SORTS ? (sortParam as Sort) : "date";
  const deleted = one(sp.deleted);
  const db = getDb();
  const facets = runFacets(db);
  const all = listRunSummaries(db);
  if (all.length === 0) {
    return (
      <div className="space-y-4">
        <h1 className="text-xl font-semibold">Runs</h1>
        {deleted ? <Deleted name={deleted} /> : null}
        <EmptyState />
      </div>
    );
  }
  const runs = listRunSummaries(db, { model, probe });
  const injectRate = (r: (typeof runs)[number]) => {
    const f = shownFields(r)[0];
    return f?.n ? f.labels.INJECT / f.n : -1;
  };
  runs.sort((a, b) => {
    if (sort === "inject") return injectRate(b) - injectRate(a);
    if (sort === "model") return (a.model ?? "").localeCompare(b.model ?? "") || b.date.localeCompare(a.date);
    if (sort === "name") return a.name.localeCompare(b.name);
    return 0;
  });
  // Fields worth a trend: ones some model has in more than one run.
  const runsPerModelField = new Map<string, number>();
  for (const r of all)
    for (const f of r.fields)
      runsPerModelField.set(
        `${r.model}\u0000${f.field}`,
        (runsPerModelField.get(`${r.model}\u0000${f.field}`) ?? 0) + 1,
      );
  const fieldNames = [
    ...new Set([...runsPerModelField].filter(([, n]) => n > 1).map(([k]) => k.split("\u0000")[1])),
  ].sort((a, b) => (a === "timezone" ? -1 : b === "timezone" ? 1 : a.localeCompare(b)));
  const trendParam = one(sp.trend);
  const trendField =
    trendParam && fieldNames.includes(trendParam)
      ? trendParam
      : fieldNames.includes("timezone")
        ? "timezone"
        : fieldNames[0];
  const trends = trendField
    ? trendsByModel(model ? all.filter((r) => r.model === model) : all, trendField).filter(
        (t) => t.points.length > 1,
      )
    : [];
  const keep = (extra: Record<string, string>) => {
    const p = new URLSearchParams();
    if (model) p.set("model", model);
    if (probe) p.set("probe", probe);
    if (sort !== "date") p.set("sort", sort);
    for (const [k, v] of Object.entries(extra)) p.set(k, v);
    return `/?${p}`;
  };

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-xl font-semibold">Runs</h1>
          <p className="text-sm text-slate-600">
            Label rates per probed field with the sample size and 95% interval behind each; INJECT first.
          </p>
        </div>
        <form
          method="get"
          action="/"
          className="flex flex-wrap items-end gap-2 text-xs text-slate-600"
          data-testid="runs-filter"
        >
          <label className="flex flex-col">
            Model
            <select
              name="model"
              defaultValue={model ?? ""}
              className="mt-1 rounded border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900"
            >
              <option value="">all models</option>
              {facets.models.map((m) => (
                <option key={m}>{m}</option>
              ))}
            </select>
          </label>
          <label className="flex flex-col">
            Probe
            <select
              name="probe"
              defaultValue={probe ?? ""}
              className="mt-1 max-w-[16rem] rounded border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900"
            >
              <option value="">all probes</option>
              {facets.probes.map((p) => (
                <option key={p}>{p}</option>
              ))}
            </select>
          </label>
          <label className="flex flex-col">
            Sort
            <select
              name="sort"
              defaultValue={sort}
              className="mt-1 rounded border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900"
            >
              {Object.entries(SORTS).map(([k, v]) => (
                <option key={k} value={k}>
                  {v}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="rounded bg-slate-900 px-3 py-1.5 text-sm text-white">
            Show
          </button>
        </form>
      </div>
      {deleted ? <Deleted name={deleted} /> : null}

      <CompareForm runs={all.map((r) => r.name)} defaults={compareDefaults(all)} />

      <AgreementLines db={db} />

      {runs.length === 0 ? (
        <p
          className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-600"
          data-testid="no-runs-match"
        >
          No run matches this filter.{" "}
          <Link href="/" className="text-indigo-700 underline">
            Show all runs
          </Link>
        </p>
      ) : (
        <RunsTable runs={runs} />
      )}

      {trends.length > 0 ? (
        <section className="space-y-2">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 className="text-lg font-semibold">Trend per model</h2>
            <nav className="flex flex-wrap gap-2 text-xs" aria-label="Trend field">
              {fieldNames.slice(0, 8).map((f) => (
                <Link
                  key={f}
                  href={keep({ trend: f })}
                  className={`rounded px-2 py-0.5 font-mono ${f === trendField ? "bg-slate-900 text-white" : "border border-slate-300 text-slate-700"}`}
                >
                  {f}
                </Link>
              ))}
            </nav>
          </div>
          <p className="text-xs text-slate-500">
            Live labels are weather, the trend is the climate. ◇ marks a run whose payloads named another
            model than the pinned one.
          </p>
          <div className="grid gap-3 md:grid-cols-2">
            {trends.map((t) => (
              <TrendChart key={t.model} model={t.model} field={trendField as string} points={t.points} />
            ))}
          </div>
        </section>
      ) : null}
    </div>
  );
}

function Deleted({ name }: { name: string }) {
  return (
    <p
      role="status"
      className="rounded bg-emerald-50 p-2 text-sm text-emerald-900"
      data-testid="deleted-notice"
    >
      Run <span className="font-mono">{name}</span> was deleted.
    </p>
  );
}

/** The morning-after comparison: the newest run against the previous run of the same model. */
function compareDefaults(runs: { name: string; model: string | null }[]): { a: string; b: string } | null {
  for (let i = 0; i < runs.length; i++) {
    const prev = runs.slice(i + 1).find((r) => r.model === runs[i].model);
    if (prev) return { a: prev.name, b: runs[i].name };
  }
  return runs.length >= 2 ? { a: runs[1].name, b: runs[0].name } : null;
}

function CompareForm({ runs, defaults }: { runs: string[]; defaults: { a: string; b: string } | null }) {
  if (runs.length < 2 || !defaults) return null;
  return (
    <form
      method="get"
      action="/compare"
      className="flex flex-wrap items-end gap-2 rounded-lg border border-slate-200 bg-white p-3 text-xs text-slate-600"
      data-testid="compare-form"
    >
      <span className="mr-2 self-center text-sm font-medium text-slate-800">Compare two runs</span>
      <label className="flex flex-col">
        Before
        <select
          name="a"
          defaultValue={defaults.a}
          className="mt-1 max-w-[20rem] rounded border border-slate-300 bg-white px-2 py-1 font-mono text-sm text-slate-900"
        >
          {runs.map((r) => (
            <option key={r}>{r}</option>
          ))}
        </select>
      </label>
      <label className="flex flex-col">
        After
        <select
          name="b"
          defaultValue={defaults.b}
          className="mt-1 max-w-[20rem] rounded border border-slate-300 bg-white px-2 py-1 font-mono text-sm text-slate-900"
        >
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
