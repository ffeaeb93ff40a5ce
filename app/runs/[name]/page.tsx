import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Card } from "@/app/_components/Card";
import { FieldRatesTable } from "@/app/_components/FieldRatesTable";
import { BulkAddToSet } from "@/app/_fixtures/BulkAddToSet";
import { resumeBulkJobs } from "@/app/_review/bulkProcess";
import { bulkJobView } from "@/app/_review/bulkView";
import { currentReviewer } from "@/app/_review/reviewer";
import { getDb } from "@/db/client";
import { latestBulkJob } from "@/db/queries/bulkReviews";
import { currentReviewsOf } from "@/db/queries/reviews";
import { listRunErrors } from "@/db/queries/runErrors";
import { getRunSummary } from "@/db/queries/runs";
import { COUNT_SAMPLE, listTraces } from "@/db/queries/traceList";
import { ANY_FIELD } from "@/lib/ingest/tags";
import { LABEL_ORDER, primaryField } from "@/lib/labelOrder";
import { INJECT_REASONS } from "@/lib/probe/score";
import { HUMAN_FILTERS, humanFilterText } from "@/lib/review/humanFilter";
import { FLAG_OPTIONS, filterToParams, GATE_VERDICTS, parseTraceFilter } from "@/lib/traceFilter";
import { BulkRelabel } from "./BulkRelabel";
import { FilterBar, type FilterSelect } from "./FilterBar";
import { RunKeys } from "./RunKeys";
import { traceRowView } from "./rowView";
import { TraceTable } from "./TraceTable";

type Props = {
  params: Promise<{ name: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: decodeURIComponent((await params).name) };
}

const opts = (values: readonly string[]) => values.map((v) => ({ value: v, label: v.replaceAll("_", " ") }));

export default async function RunPage({ params, searchParams }: Props) {
  const name = decodeURIComponent((await params).name);
  const db = getDb();
  const run = getRunSummary(db, name);
  if (!run) notFound();
  const filter = parseTraceFilter(await searchParams);
  const fieldNames = run.fields.map((f) => f.field);
  const defaultField = fieldNames.length <= 3 ? (primaryField(run.fields) ?? ANY_FIELD) : ANY_FIELD;
  const field =
    filter.field && (filter.field === ANY_FIELD || fieldNames.includes(filter.field))
      ? filter.field
      : defaultField;
  const page = listTraces(db, run.id, filter, field);
  const base = `/runs/${encodeURIComponent(run.name)}`;
  const filterParams = filterToParams({ ...filter, field });
  const query = filterParams.toString();
  const pageHref = (k: "after" | "before", id: number) => {
    const p = filterToParams({ ...filter, field });
    p.set(k, String(id));
    return `${base}?${p}`;
  };
  const hrefFor = (f: string, label: string) => `${base}?${new URLSearchParams({ field: f, label })}`;
  const errors = run.rejectedCount > 0 ? listRunErrors(db, run.id, 100) : [];
  const reviews = currentReviewsOf(
    db,
    page.rows.map((r) => r.id),
  );
  // A bulk relabel left running (a reload, a restart) goes on, and its progress shows.
  resumeBulkJobs(db);
  const bulk = latestBulkJob(db, run.id);
  const reviewer = await currentReviewer();
  const reviewed = { reviewed: 0, corrects: 0, confirms: 0 };
  for (const f of run.fields) {
    reviewed.reviewed += f.reviews.reviewed;
    reviewed.corrects += f.reviews.corrects;
    reviewed.confirms += f.reviews.confirms;
  }

  const selects: FilterSelect[] = [
    {
      name: "field",
      label: "Field",
      value: field,
      options: [{ value: ANY_FIELD, label: "any field" }, ...fieldNames.map((f) => ({ value: f, label: f }))],
    },
    {
      name: "label",
      label: "Label",
      value: filter.label ?? "",
      any: "any label",
      options: opts(LABEL_ORDER),
    },
    {
      name: "reason",
      label: "INJECT reason",
      value: filter.reason ?? "",
      any: "any reason",
      options: opts(INJECT_REASONS),
    },
    { name: "flag", label: "Flag", value: filter.flag ?? "", any: "any flag", options: opts(FLAG_OPTIONS) },
    {
      name: "gate",
      label: "Gate",
      value: filter.gate ?? "",
      any: "any verdict",
      options: opts(GATE_VERDICTS),
    },
    {
      name: "human",
      label: "Human label",
      value: filter.human ?? "",
      any: "any",
      options: HUMAN_FILTERS.map((h) => ({ value: h, label: humanFilterText(h) })),
    },
    {
      name: "recorded",
      label: "Recorded label",
      value: filter.recorded ?? "",
      any: "any",
      options: [
        { value: "disagree", label: "disagrees with ours" },
        { value: "agree", label: "agrees with ours" },
      ],
    },
  ];
  if (run.probes.length > 1) {
    selects.push({
      name: "probe",
      label: "Probe",
      value: filter.probe ?? "",
      any: `any of ${run.probes.length}`,
      options: run.probes.map((p) => ({ value: p.id, label: p.id })),
    });
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <p className="text-xs text-slate-500">
            <Link href="/" className="hover:underline">
              Runs
            </Link>{" "}
            /
          </p>
          <h1 className="font-mono text-xl font-semibold break-all" data-testid="run-name">
            {run.name}
          </h1>
          <p className="mt-1 text-sm text-slate-600">
            model <span className="font-mono text-slate-900">{run.model ?? "—"}</span> ·{" "}
            {run.traceCount.toLocaleString("en-US")} traces · {run.date.slice(0, 16).replace("T", " ")}
            {run.mismatchCount > 0 ? (
              <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900">
                {run.mismatchCount} answered by another model
              </span>
            ) : null}
            {reviewed.reviewed > 0 ? (
              <Link
                href={`${base}?${new URLSearchParams({ field: ANY_FIELD, human: "reviewed" })}`}
                className="ml-2 rounded bg-indigo-50 px-1.5 py-0.5 text-xs text-indigo-900 hover:underline"
                data-testid="review-summary"
              >
                {reviewed.reviewed.toLocaleString("en-US")} fields reviewed:{" "}
                {reviewed.corrects.toLocaleString("en-US")} corrected ours,{" "}
                {reviewed.confirms.toLocaleString("en-US")} confirmed
              </Link>
            ) : null}
            {run.rejectedCount > 0 ? (
              <a href="#rejected" className="ml-2 rounded bg-red-100 px-1.5 py-0.5 text-xs text-red-900">
                {run.rejectedCount} rejected lines
              </a>
            ) : null}
          </p>
          {run.params ? <p className="mt-1 font-mono text-xs text-slate-500">params {run.params}</p> : null}
        </div>
        <div className="flex items-center gap-2">
          <RunKeys />
          <a
            href={`${base}/export`}
            className="rounded border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-50"
          >
            Export JSONL
          </a>
        </div>
      </div>

      <Card title="Label rates">
        <FieldRatesTable fields={run.fields} hrefFor={hrefFor} max={fieldNames.length > 6 ? 3 : 6} />
      </Card>

      <FilterBar action={base} selects={selects} q={filter.q ?? ""} clearHref={base} />

      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p
          className="text-sm text-slate-700"
          data-testid="match-count"
          data-count-kind={page.count.kind}
          title={
            page.count.kind === "estimate"
              ? `estimated from the first ${COUNT_SAMPLE.toLocaleString("en-US")} traces with the filter's rarest tag`
              : page.count.kind === "atLeast"
                ? "a search is counted up to this many"
                : undefined
          }
        >
          {page.count.kind === "estimate" ? "about " : ""}
          <span className="font-semibold tabular-nums">
            {page.count.n.toLocaleString("en-US")}
            {page.count.kind === "atLeast" ? "+" : ""}
          </span>{" "}
          {page.count.n === 1 && page.count.kind === "exact" ? "trace matches" : "traces match"}
          {field !== ANY_FIELD && (filter.label || filter.reason || filter.human || filter.recorded) ? (
            <span className="text-slate-500"> (field {field})</span>
          ) : null}
        </p>
        <div className="flex flex-wrap items-center gap-2">
          <BulkRelabel
            run={run.name}
            query={query}
            field={field}
            filterText={[...filterParams].map(([k, v]) => `${k}=${v}`).join(" ")}
            reviewer={reviewer}
            running={bulk?.status === "running" ? bulkJobView(bulk) : null}
          />
          <BulkAddToSet
            run={run.name}
            query={query}
            field={field}
            filterText={[...filterParams].map(([k, v]) => `${k}=${v}`).join(" ")}
            reviewer={reviewer}
          />
          <Pager
            prev={page.prevBefore && pageHref("before", page.prevBefore)}
            next={page.nextAfter && pageHref("after", page.nextAfter)}
          />
        </div>
      </div>

      {page.rows.length === 0 ? (
        <div
          className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center text-sm text-slate-600"
          data-testid="no-matches"
        >
          No trace matches this filter.{" "}
          <Link href={base} className="text-indigo-700 underline">
            Clear the filter
          </Link>
        </div>
      ) : (
        <TraceTable
          rows={page.rows.map((r) => traceRowView(r, field, reviews.get(r.id)))}
          query={query}
          showProbe={run.probes.length > 1}
        />
      )}
      <div className="flex justify-end">
        <Pager
          prev={page.prevBefore && pageHref("before", page.prevBefore)}
          next={page.nextAfter && pageHref("after", page.nextAfter)}
        />
      </div>

      {errors.length > 0 ? (
        <Card title={`Rejected lines (${run.rejectedCount})`}>
          <div id="rejected" />
          <ul className="space-y-1 font-mono text-xs" data-testid="rejected-lines">
            {errors.map((e) => (
              <li key={e.id}>
                <details>
                  <summary className="cursor-pointer">
                    <span className="text-slate-500">
                      {e.file} line {e.line}:
                    </span>{" "}
                    <span className="text-red-800">{e.reason}</span>
                  </summary>
                  <pre className="mt-1 max-h-40 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-2 text-slate-700">
                    {e.raw === "" ? "(no text)" : e.raw}
                    {e.cut ? "…" : null}
                  </pre>
                </details>
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
    </div>
  );
}

function Pager({ prev, next }: { prev: string | null | 0; next: string | null | 0 }) {
  const cls = "rounded border border-slate-300 bg-white px-2.5 py-1 text-sm";
  return (
    <nav className="flex gap-2" aria-label="Pages">
      {prev ? (
        <Link href={prev} className={`${cls} hover:bg-slate-50`} rel="prev" data-testid="page-prev">
          ← Previous
        </Link>
      ) : (
        <span className={`${cls} text-slate-300`}>← Previous</span>
      )}
      {next ? (
        <Link href={next} className={`${cls} hover:bg-slate-50`} rel="next" data-testid="page-next">
          Next →
        </Link>
      ) : (
        <span className={`${cls} text-slate-300`}>Next →</span>
      )}
    </nav>
  );
}
