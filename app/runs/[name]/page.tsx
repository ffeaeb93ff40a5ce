import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Ident } from "@/app/_components/Breakable";
import { Card } from "@/app/_components/Card";
import { FieldRatesTable } from "@/app/_components/FieldRatesTable";
import { FilterNotices } from "@/app/_components/FilterNotices";
import { BulkAddToSet } from "@/app/_fixtures/BulkAddToSet";
import { bulkAddJobView } from "@/app/_fixtures/bulkAddView";
import { bulkJobView } from "@/app/_review/bulkView";
import { currentReviewer } from "@/app/_review/reviewer";
import { getDb } from "@/db/client";
import { latestBulkJob } from "@/db/queries/bulkReviews";
import { latestBulkAdd } from "@/db/queries/fixturesBulk";
import { listRescores, pendingConfigRescores, rescoreProgress } from "@/db/queries/rescore/jobs";
import { currentReviewsOf } from "@/db/queries/reviews";
import { listRunErrors } from "@/db/queries/runErrors";
import { runScoringView } from "@/db/queries/runScoringView";
import { getRunSummary } from "@/db/queries/runs";
import { COUNT_SAMPLE, listTraces, PAGE_SIZE } from "@/db/queries/traceList";
import { countBefore, pageHolding } from "@/db/queries/tracePosition";
import { ANY_FIELD } from "@/lib/ingest/tags";
import { LABEL_ORDER } from "@/lib/labelOrder";
import { INJECT_REASONS } from "@/lib/probe/score";
import { HUMAN_FILTERS, humanFilterText } from "@/lib/review/humanFilter";
import { decodeSegment, hasRunPath, runExportHref, runHref } from "@/lib/runPath";
import {
  FLAG_OPTIONS,
  filterField,
  filterToParams,
  GATE_VERDICTS,
  parseTraceFilter,
  unknownFieldNotice,
  unknownParams,
} from "@/lib/traceFilter";
import { BulkRelabel } from "./BulkRelabel";
import { FilterBar, type FilterSelect } from "./FilterBar";
import { GateLogSummary, GateLogTable, gateLogSelects } from "./GateLogRun";
import { PagePosition, Pager } from "./Pager";
import { RunKeys } from "./RunKeys";
import { RunScoring } from "./RunScoring";
import { traceRowView } from "./rowView";
import { TraceTable } from "./TraceTable";

type Props = {
  params: Promise<{ name: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: decodeSegment((await params).name) ?? "Not found" };
}

/** The run page's own parameters beside the filter's (see below). */
const RUN_PAGE_PARAMS = ["at", "pos", "from"] as const;

const opts = (values: readonly string[]) => values.map((v) => ({ value: v, label: v.replaceAll("_", " ") }));

export default async function RunPage({ params, searchParams }: Props) {
  // Pages get the path segment as sent (route handlers get it decoded): decode it once here.
  const name = decodeSegment((await params).name);
  if (name === null) notFound();
  const db = getDb();
  const run = getRunSummary(db, name);
  if (!run) notFound();
  const sp = await searchParams;
  const filter = parseTraceFilter(sp);
  // Beside the filter: `at` (a trace to show on its page and highlight: where `u` from a trace
  // returns), `pos` (that trace's position, when known) and `from` (the position of a cursor
  // page's first row, carried by the paging links).
  const at = positiveInt(sp.at);
  const fieldNames = run.fields.map((f) => f.field);
  const field = filterField(filter, fieldNames);
  // A parameter the page does not read, or a field the run lacks, is said, not silently dropped.
  const notices = [...unknownParams(sp, RUN_PAGE_PARAMS), unknownFieldNotice(filter, fieldNames)];
  const unpaged = { ...filter, after: undefined, before: undefined };
  const holding = at ? pageHolding(db, run.id, unpaged, field, at, positiveInt(sp.pos) ?? null) : null;
  const page = holding ?? listTraces(db, run.id, filter, field);
  const from = positiveInt(sp.from);
  const start: number | null = holding
    ? holding.start
    : !filter.after && !filter.before
      ? 0
      : from
        ? from - 1
        : page.rows.length
          ? countBefore(db, run.id, unpaged, field, page.rows[0].id)
          : null;
  const base = runHref(run.name);
  const filterParams = filterToParams({ ...filter, field });
  const query = filterParams.toString();
  /** The filter in words, as the bulk actions' dialogs name it. */
  const filterText = [...filterParams].map(([k, v]) => `${k}=${v}`).join(" ");
  const pageHref = (k: "after" | "before", id: number) => {
    const p = filterToParams({ ...filter, field });
    p.set(k, String(id));
    const first = start === null ? null : k === "after" ? start + page.rows.length : start - PAGE_SIZE;
    if (first !== null && first >= 0) p.set("from", String(first + 1));
    return runHref(run.name, p);
  };
  const prevHref = page.prevBefore ? pageHref("before", page.prevBefore) : null;
  const nextHref = page.nextAfter ? pageHref("after", page.nextAfter) : null;
  const hrefFor = (f: string, label: string) => runHref(run.name, new URLSearchParams({ field: f, label }));
  const errors = run.rejectedCount > 0 ? listRunErrors(db, run.id, 100) : [];
  const reviews = currentReviewsOf(
    db,
    page.rows.map((r) => r.id),
  );
  // A bulk relabel left running (a restart) is resumed by the server (db/jobs): its progress shows.
  const bulk = latestBulkJob(db, run.id);
  const bulkAdd = latestBulkAdd(db, run.id);
  const reviewer = await currentReviewer();
  const reviewed = { reviewed: 0, corrects: 0, confirms: 0 };
  for (const f of run.fields) {
    reviewed.reviewed += f.reviews.reviewed;
    reviewed.corrects += f.reviews.corrects;
    reviewed.confirms += f.reviews.confirms;
  }

  const gateLog = run.kind === "gate_log";
  const probeSelects: FilterSelect[] = [
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
  // A gate-log run's decisions have no fields or labels: its one filter is the gate's.
  const selects = gateLog ? gateLogSelects(filter) : probeSelects;
  if (!gateLog && run.probes.length > 1) {
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
          <h1 className="font-mono text-xl font-semibold" data-testid="run-name">
            <Ident text={run.name} />
          </h1>
          <p className="mt-1 text-sm text-slate-600">
            model <Ident text={run.model ?? "—"} className="font-mono text-slate-900" /> ·{" "}
            {run.traceCount.toLocaleString("en-US")} traces · {run.date.slice(0, 16).replace("T", " ")}
            {(run.flags.agent_step ?? 0) > 0 ? (
              <span
                className="ml-2 inline-block whitespace-nowrap rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700"
                data-testid="agent-steps"
                title="generations of agent turns that another generation of the turn counts for: shown, not counted in the rates"
              >
                {run.flags.agent_step.toLocaleString("en-US")} agent steps not counted
              </span>
            ) : null}
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
          {run.params ? (
            <p className="mt-1 font-mono text-xs break-words text-slate-500">params {run.params}</p>
          ) : null}
        </div>
        <div className="flex items-center gap-2">
          <RunKeys />
          <a
            href={runExportHref(run.name, filterParams)}
            title="Every trace of this filter, as assumeprobe export prints it"
            data-testid="export-link"
            className="rounded border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-50"
          >
            Export JSONL
          </a>
        </div>
      </div>

      {gateLog ? (
        <GateLogSummary run={run} />
      ) : (
        <>
          <Card title="Label rates">
            <FieldRatesTable fields={run.fields} hrefFor={hrefFor} max={fieldNames.length > 6 ? 3 : 6} />
          </Card>

          <RunScoring
            run={run.name}
            scoring={runScoringView(db, run.id)}
            rescores={listRescores(db, run.id, 5)}
            running={rescoreProgress(db, pendingConfigRescores(db, run.id))}
            reviewer={reviewer}
          />
        </>
      )}

      <FilterBar
        action={hasRunPath(run.name) ? base : "/runs"}
        hidden={hasRunPath(run.name) ? {} : { name: run.name }}
        selects={selects}
        q={filter.q ?? ""}
        clearHref={base}
      />

      <FilterNotices notices={notices} />

      {at && holding && !holding.found ? (
        <p
          role="status"
          className="rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900"
          data-testid="came-from-outside"
        >
          Trace #{at}, which you came from, does not match this filter (it may have been relabelled); these
          are the traces around where it would be.
        </p>
      ) : null}

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
        <div className="flex flex-wrap items-center gap-3">
          {gateLog ? null : (
            <>
              <BulkRelabel
                run={run.name}
                query={query}
                field={field}
                filterText={filterText}
                reviewer={reviewer}
                running={bulk?.status === "running" ? bulkJobView(bulk) : null}
              />
              <BulkAddToSet
                run={run.name}
                query={query}
                field={field}
                filterText={filterText}
                reviewer={reviewer}
                running={bulkAdd?.status === "running" ? bulkAddJobView(db, bulkAdd) : null}
              />
            </>
          )}
          <PagePosition
            start={start}
            shown={page.rows.length}
            count={page.count}
            firstId={page.rows[0]?.id}
          />
          <Pager prev={prevHref} next={nextHref} />
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
      ) : gateLog ? (
        <GateLogTable
          rows={page.rows}
          query={query}
          start={start}
          highlight={holding?.found ? at : undefined}
        />
      ) : (
        <TraceTable
          rows={page.rows.map((r) => traceRowView(r, field, reviews.get(r.id)))}
          query={query}
          showProbe={run.probes.length > 1}
          start={start}
          highlight={holding?.found ? at : undefined}
        />
      )}
      <div className="flex flex-wrap items-center justify-end gap-3">
        <PagePosition start={start} shown={page.rows.length} count={page.count} firstId={page.rows[0]?.id} />
        <Pager prev={prevHref} next={nextHref} />
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
                      <Ident text={e.file} /> line {e.line}:
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

function positiveInt(v: string | string[] | undefined): number | undefined {
  const x = Array.isArray(v) ? v[0] : v;
  return x && /^[1-9][0-9]{0,15}$/.test(x) ? Number(x) : undefined;
}
