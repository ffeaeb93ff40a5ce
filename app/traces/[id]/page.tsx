import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { Ident } from "@/app/_components/Breakable";
import { FilterNotices } from "@/app/_components/FilterNotices";
import { FlagList } from "@/app/_components/FlagList";
import { GateBadge } from "@/app/_components/GateBadge";
import { LabelChip } from "@/app/_components/LabelChip";
import { ParseNotes } from "@/app/_components/ParseNotes";
import { WorldPanels } from "@/app/_components/WorldPanels";
import { currentReviewer } from "@/app/_review/reviewer";
import { getDb } from "@/db/client";
import { getTraceDetail, parseTraceId, traceWorldState } from "@/db/queries/traceDetail";
import { neighbours } from "@/db/queries/traceList";
import { traceInFilter } from "@/db/queries/tracePosition";
import type { Fact } from "@/lib/gate/facts";
import { GATE_LOG_FORM } from "@/lib/ingest/gateLogForm";
import { ANY_FIELD } from "@/lib/ingest/tags";
import { askTermHits, markArgumentsBounded, readCallArguments } from "@/lib/probe/argumentMarks";
import { runHref } from "@/lib/runPath";
import {
  filterField,
  filterToParams,
  parseTraceFilter,
  type TraceFilter,
  unknownFieldNotice,
  unknownParams,
} from "@/lib/traceFilter";
import { FieldLabels } from "./FieldLabels";
import { GateCard } from "./GateCard";
import { GateLogDecision, gateLogVerdicts } from "./GateLogDecision";
import { MakeProbeLink } from "./MakeProbeLink";
import { ProvenanceCard } from "./ProvenanceCard";
import { RecordCard } from "./RecordCard";
import { ResponseText } from "./ResponseText";
import { ReviewHistory } from "./ReviewHistory";
import { ReviewPanel } from "./ReviewPanel";
import { REVIEW_KEYS } from "./reviewKeys";
import { reviewView } from "./reviewView";
import { SideEffect } from "./SideEffect";
import { ToolCall } from "./ToolCall";
import { ToolSchemaCard } from "./ToolSchemaCard";
import { TraceNav } from "./TraceNav";

type Props = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const id = parseTraceId((await params).id);
  return { title: id === null ? "Not found" : `Trace ${id}` };
}

/** Filters that name a field's label, reason or agreement need a field; the run page always sends one. */
function navField(filter: TraceFilter, fields: string[]): string | null {
  // A field the run lacks reads every field, as the run page does (and says so).
  if (filter.field) return filterField(filter, fields);
  if (!(filter.label || filter.reason || filter.human || filter.recorded || filter.flag)) return null;
  // As on the run page: a filter that names no field reads every field.
  return fields.length ? ANY_FIELD : null;
}

/** The trace page's own parameters beside the filter's. */
const TRACE_PAGE_PARAMS = ["pos"] as const;

/** A 1-based position carried in the URL (`pos`), when it is one. */
function position(v: string | string[] | undefined): number | null {
  const x = Array.isArray(v) ? v[0] : v;
  return x && /^[1-9][0-9]{0,15}$/.test(x) ? Number(x) : null;
}

export default async function TracePage({ params, searchParams }: Props) {
  await connection();
  const id = parseTraceId((await params).id);
  if (id === null) notFound();
  const db = getDb();
  const t = await getTraceDetail(db, id);
  if (!t) notFound();

  const sp = await searchParams;
  const rawFilter = parseTraceFilter(sp);
  const field = navField(rawFilter, Object.keys(t.result.fields));
  // As on the run page: what the page does not read of its URL is said, not silently dropped.
  const notices = [
    ...unknownParams(sp, TRACE_PAGE_PARAMS),
    unknownFieldNotice(rawFilter, Object.keys(t.result.fields)),
  ];
  const filter: TraceFilter = {
    ...rawFilter,
    field: field ?? undefined,
    after: undefined,
    before: undefined,
  };
  const query = filterToParams(filter).toString();
  const nb = neighbours(db, t.run.id, t.id, filter, field);
  const inFilter = query === "" || traceInFilter(db, t.run.id, t.id, filter, field);
  // The position in the filter (from the run page's link), kept by j/k, so u returns to this
  // trace's row on its page; a trace outside the filter has none.
  const pos = inFilter ? position(sp.pos) : null;
  const hrefWith = (path: string, extra: Record<string, number | null>) => {
    const p = new URLSearchParams(query);
    for (const [k, v] of Object.entries(extra)) if (v !== null) p.set(k, String(v));
    return p.size ? `${path}${path.includes("?") ? "&" : "?"}${p}` : path;
  };
  const prevHref =
    nb.prev !== null ? hrefWith(`/traces/${nb.prev}`, { pos: pos && pos > 1 ? pos - 1 : null }) : null;
  const nextHref = nb.next !== null ? hrefWith(`/traces/${nb.next}`, { pos: pos && pos + 1 }) : null;
  const runLink = runHref(t.run.name, query);
  const backHref = hrefWith(runHref(t.run.name), { at: t.id, pos });

  const probe = t.compiled;
  const view = probe ? await markArgumentsBounded(t.response, probe) : null;
  const hits = probe ? askTermHits(t.response.text, probe) : null;
  const called = view !== null && view.kind !== "no_call";

  // The facts the gate read: the probe's, overridden key by key by the trace's own world_state.
  const traceFacts = traceWorldState(t.reread);
  const facts: Record<string, Fact> = { ...(probe?.facts ?? {}), ...(traceFacts ?? {}) };
  const factOrigin = (k: string) =>
    traceFacts && Object.hasOwn(traceFacts, k)
      ? "from the trace's world_state"
      : t.probe?.facts
        ? "from the probe"
        : "probe default";
  const callArgs = view?.kind === "call" ? Object.fromEntries(view.args.map((a) => [a.key, a.value])) : null;
  const written = (t.reread.side_effect as { written?: unknown } | undefined)?.written;
  const writtenRead =
    t.result.side_effect && probe
      ? await readCallArguments(written, new Set([...probe.fields, ...probe.requires]))
      : null;

  const review = reviewView(db, t.id, t.result.fields, t.human);
  const reviewer = await currentReviewer();

  // A decision of a gate in the user's agent (a gate-log run): no probe, no fields, two verdicts.
  const gateLog = t.form === GATE_LOG_FORM ? gateLogVerdicts(t) : null;

  return (
    <div className="space-y-4" data-testid="trace-page" data-trace-id={t.id}>
      <nav aria-label="Breadcrumb" className="text-sm text-slate-600">
        <Link href="/" className="hover:underline">
          Runs
        </Link>
        <span aria-hidden="true"> › </span>
        <Link href={backHref} className="font-mono text-indigo-700 hover:underline" data-testid="run-link">
          <Ident text={t.run.name} />
        </Link>
        <span aria-hidden="true"> › </span>
        <span>trace #{t.id}</span>
      </nav>

      <FilterNotices notices={notices} />

      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-xl font-semibold">
            Trace <span className="font-mono">#{t.id}</span>
            {t.extId ? (
              <Ident
                text={t.extId}
                max={120}
                className="block font-mono text-base font-normal text-slate-500 sm:ml-2 sm:inline"
                testId="ext-id"
              />
            ) : null}
          </h1>
          <MakeProbeLink traceId={t.id} />
          <div className="mt-2 flex flex-wrap items-center gap-1.5" data-testid="trace-summary">
            {Object.entries(t.result.fields).map(([f, s]) => (
              <LabelChip key={f} field={f} label={s.label} testId="summary-label" />
            ))}
            {gateLog ? <span className="text-xs text-slate-600">recorded</span> : null}
            <GateBadge
              verdict={(gateLog?.recorded ?? t.result.gate).verdict}
              next={(gateLog?.recorded ?? t.result.gate).next}
            />
            {t.result.flags.length > 0 ? <FlagList flags={t.result.flags} /> : null}
          </div>
        </div>
        <TraceNav
          prevHref={prevHref}
          nextHref={nextHref}
          backHref={backHref}
          filter={filter}
          inFilter={inFilter}
          keys={REVIEW_KEYS}
        />
      </div>

      {gateLog ? (
        <GateLogDecision t={t} />
      ) : (
        <>
          {!t.probe ? (
            <p
              className="rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
              role="alert"
            >
              Version {t.probeVersion} of probe {t.probeId} is not in the database: the world and the marks
              cannot be shown.
            </p>
          ) : null}

          <FieldLabels
            t={t}
            focusField={
              rawFilter.label || rawFilter.reason || rawFilter.human || rawFilter.recorded ? field : null
            }
          />

          <ParseNotes text={t.response.text} flags={t.result.flags} probe={probe} raw={t.reread.raw} />
          {review.fields.length > 0 ? (
            <ReviewPanel
              key={t.id}
              traceId={t.id}
              fields={review.fields}
              focusField={field}
              nextHref={nextHref}
              reviewer={reviewer}
            />
          ) : null}

          {called || !hits ? (
            <div className="grid items-start gap-4 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
              <ToolCall t={t} view={view} probe={probe} />
              {hits ? <ResponseText t={t} hits={hits} called={called} /> : null}
            </div>
          ) : (
            // No call: the text decides the labels, so it leads.
            <div className="grid items-start gap-4 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
              <ResponseText t={t} hits={hits} called={called} />
              <ToolCall t={t} view={view} probe={probe} />
            </div>
          )}

          <ReviewHistory history={review.history} fields={review.fields.map((f) => f.field)} />

          {t.probe ? <WorldPanels probe={t.probe} /> : null}

          <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
            <GateCard
              t={t}
              facts={facts}
              factOrigin={factOrigin}
              requires={probe?.requires ?? []}
              args={callArgs}
            />
            <ToolSchemaCard t={t} probe={probe} />
          </div>

          <SideEffect t={t} probe={probe} written={written} read={writtenRead} />
        </>
      )}

      <ProvenanceCard t={t} runLink={runLink} gateLog={gateLog !== null} />
      <RecordCard t={t} />
    </div>
  );
}
