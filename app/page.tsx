import Link from "next/link";
import { getDb } from "@/db/client";
import { probeOrigins } from "@/db/queries/probeUsage";
import { listRunSummaries, runFacets } from "@/db/queries/runs";
import { firstParam } from "@/lib/http/searchParam";
import { ANY_FIELD } from "@/lib/ingest/tags";
import { groupProbes } from "@/lib/probeGroups";
import { AgreementLines } from "./_overview/AgreementLines";
import { EmptyState } from "./_overview/EmptyState";
import { GateLogSection } from "./_overview/GateLogSection";
import { GROUP_PREFIX, OverviewFilter } from "./_overview/OverviewFilter";
import { RunsTable } from "./_overview/RunsTable";
import { SORTS, type Sort, sortableFields, sortRuns } from "./_overview/sort";
import { TrendSection } from "./_overview/TrendSection";
import { trendsByModel } from "./_overview/trend";
import { CompareForm, compareDefaults } from "./compare/CompareForm";

export const metadata = { title: "Runs" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const one = (v: string | string[] | undefined) => firstParam(v) || undefined;

export default async function RunsOverview({ searchParams }: Props) {
  const sp = await searchParams;
  const model = one(sp.model);
  const probe = one(sp.probe);
  const sortParam = one(sp.sort);
  const sort: Sort = sortParam && sortParam in SORTS ? (sortParam as Sort) : "date";
  const deleted = one(sp.deleted);
  const db = getDb();
  const everyRun = listRunSummaries(db);
  // Gate-log runs (a gate's decisions in the user's own agent) are shown apart from probe runs.
  const all = everyRun.filter((r) => r.kind === "probe");
  const gateLogs = everyRun.filter((r) => r.kind === "gate_log");
  if (all.length === 0) {
    return (
      <div className="space-y-6">
        <h1 className="text-xl font-semibold">Runs</h1>
        {deleted ? <Deleted name={deleted} /> : null}
        <EmptyState />
        <GateLogSection runs={gateLogs} />
      </div>
    );
  }
  const facets = runFacets(db);
  // Probes grouped by where they came from (300 When2Call probes are one choice).
  const runsOfProbe = new Map<string, string[]>();
  for (const r of all)
    for (const p of r.probes) runsOfProbe.set(p.id, [...(runsOfProbe.get(p.id) ?? []), r.name]);
  const origins = probeOrigins(db);
  const groups = groupProbes(
    facets.probes.map((id) => ({ id, origin: origins.get(id) ?? "", runs: runsOfProbe.get(id) ?? [] })),
  );
  const group = probe?.startsWith(GROUP_PREFIX)
    ? groups.find((g) => g.key === probe.slice(GROUP_PREFIX.length))
    : undefined;
  const inProbes = group ? new Set(group.probes) : probe ? new Set([probe]) : null;
  const runs = all.filter(
    (r) => (!model || r.model === model) && (!inProbes || r.probes.some((p) => inProbes.has(p.id))),
  );
  const fieldParam = one(sp.field);
  const sortFields = sortableFields(runs, fieldParam);
  const sortField =
    fieldParam && sortFields.includes(fieldParam)
      ? fieldParam
      : sortFields.includes("timezone")
        ? "timezone"
        : sortFields[0];
  sortRuns(runs, sort, sortField);

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
    if (fieldParam) p.set("field", fieldParam);
    for (const [k, v] of Object.entries(extra)) p.set(k, v);
    return `/?${p}`;
  };
  const defaults = compareDefaults(all);

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-xl font-semibold">Runs</h1>
          <p className="text-sm text-slate-600">
            Label rates per probed field with the sample size and 95% interval behind each; INJECT first.{" "}
            <Link href="/ingests" className="text-indigo-700 underline" data-testid="recent-ingests">
              Recent ingests
            </Link>
          </p>
        </div>
        <OverviewFilter
          models={facets.models}
          model={model}
          groups={groups}
          probe={probe}
          sort={sort}
          sortFields={sortFields}
          sortField={sortField}
        />
      </div>
      {deleted ? <Deleted name={deleted} /> : null}

      {all.length >= 2 && defaults ? <CompareForm runs={all.map((r) => r.name)} defaults={defaults} /> : null}

      <AgreementLines db={db} />

      <GateLogSection runs={gateLogs} />

      {trends.length > 0 && trendField ? (
        <TrendSection
          trends={trends}
          field={trendField}
          fields={fieldNames}
          hrefFor={(f) => keep({ trend: f })}
        />
      ) : null}

      <section className="space-y-2" aria-label="Runs">
        {sort === "inject" ? (
          <p className="text-xs text-slate-600" data-testid="sort-note">
            Sorted by the low end of the 95% interval of each run's INJECT rate on{" "}
            {sortField === ANY_FIELD ? "every field, summed" : <span className="font-mono">{sortField}</span>}
            : the rate a run surely has at least, so 2 of 4 traces does not outrank 60 of 150. Runs that do
            not probe the field come last.
          </p>
        ) : null}
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
          <RunsTable runs={runs} sortField={sort === "inject" ? sortField : undefined} />
        )}
      </section>
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
      Run <span className="ident font-mono">{name}</span> was deleted.
    </p>
  );
}
