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
import { GATE_LOG_FORM } from "@/lib/ingest/gateLogForm";
import { askTermHits, markArgumentsBounded, readCallArguments } from "@/lib/probe/argumentMarks";
import { TRACE_REVIEW_KEY_HELP } from "@/lib/review/keys";
import { FieldLabels } from "./FieldLabels";
import { GateCard } from "./GateCard";
import { GateLogDecision, gateLogVerdicts } from "./GateLogDecision";
import { MakeProbeLink } from "./MakeProbeLink";
import { ProvenanceCard } from "./ProvenanceCard";
import { RecordCard } from "./RecordCard";
import { ResponseText } from "./ResponseText";
import { ReviewHistory } from "./ReviewHistory";
import { ReviewPanel } from "./ReviewPanel";
import { reviewView } from "./reviewView";
import { SideEffect } from "./SideEffect";
import { ToolCall } from "./ToolCall";
import { ToolSchemaCard } from "./ToolSchemaCard";
import { TraceNav } from "./TraceNav";
import { gateFacts, traceFilterView, traceNavLinks } from "./traceView";

type Props = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const id = parseTraceId((await params).id);
  return { title: id === null ? "Not found" : `Trace ${id}` };
}

export default async function TracePage({ params, searchParams }: Props) {
  await connection();
  const id = parseTraceId((await params).id);
  if (id === null) notFound();
  const db = getDb();
  const t = await getTraceDetail(db, id);
  if (!t) notFound();

  const sp = await searchParams;
  const { filter, field, query, notices, focusField } = traceFilterView(sp, Object.keys(t.result.fields));
  const inFilter = query === "" || traceInFilter(db, t.run.id, t.id, filter, field);
  const { prevHref, nextHref, backHref, runLink } = traceNavLinks({
    runName: t.run.name,
    traceId: t.id,
    query,
    neighbours: neighbours(db, t.run.id, t.id, filter, field),
    inFilter,
    pos: sp.pos,
  });

  const probe = t.compiled;
  const view = probe ? await markArgumentsBounded(t.response, probe) : null;
  const hits = probe ? askTermHits(t.response.text, probe, undefined, t.response.verbatim === true) : null;
  const called = view !== null && view.kind !== "no_call";

  const gate = gateFacts(probe?.facts, traceWorldState(t.reread), Boolean(t.probe?.facts));
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
          keys={TRACE_REVIEW_KEY_HELP}
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

          <FieldLabels t={t} focusField={focusField} />

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
              facts={gate.facts}
              factOrigin={gate.origin}
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
