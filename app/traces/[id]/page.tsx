import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { breakable, Ident } from "@/app/_components/Breakable";
import { Card } from "@/app/_components/Card";
import { FilterNote } from "@/app/_components/FilterNote";
import { FilterNotices } from "@/app/_components/FilterNotices";
import { FlagList } from "@/app/_components/FlagList";
import { GateBadge } from "@/app/_components/GateBadge";
import { LabelChip } from "@/app/_components/LabelChip";
import { ParseNotes } from "@/app/_components/ParseNotes";
import { CutNote, SafeJsonBlock } from "@/app/_components/SafeJsonBlock";
import { ToolSchema } from "@/app/_components/ToolSchema";
import { TraceKeys } from "@/app/_components/TraceKeys";
import { WorldPanels } from "@/app/_components/WorldPanels";
import { currentReviewer } from "@/app/_review/reviewer";
import { getDb } from "@/db/client";
import { getTraceDetail, parseTraceId, traceWorldState } from "@/db/queries/traceDetail";
import { neighbours } from "@/db/queries/traceList";
import { traceInFilter } from "@/db/queries/tracePosition";
import { SHOWN_STRING } from "@/lib/budget/jsonBudget";
import type { Fact } from "@/lib/gate/facts";
import { GATE_LOG_FORM } from "@/lib/ingest/gateLogForm";
import { ANY_FIELD } from "@/lib/ingest/tags";
import { askTermHits, markArgumentsBounded, readCallArguments } from "@/lib/probe/argumentMarks";
import { TRACE_REVIEW_KEY_HELP } from "@/lib/review/keys";
import { runHref } from "@/lib/runPath";
import {
  filterField,
  filterToParams,
  parseTraceFilter,
  type TraceFilter,
  unknownFieldNotice,
  unknownParams,
} from "@/lib/traceFilter";
import { GateLogDecision, gateLogVerdicts } from "./GateLogDecision";
import { traceLinks } from "./links";
import { MakeProbeLink } from "./MakeProbeLink";
import { RecordDownloads } from "./RecordDownloads";
import { ReviewHistory } from "./ReviewHistory";
import { ReviewPanel } from "./ReviewPanel";
import { reviewView } from "./reviewView";
import { FieldLabels, GateCard, Meta, ResponseText, SideEffect, ToolCall } from "./sections";

/** Characters of each JSON panel; the whole record is a download away. */
const SHOWN_JSON = 20_000;

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
  const raw = t.reread.raw;
  const w2c = t.reread.when2call;
  const offered = t.probe?.tools?.filter((x) => x.name !== t.probe?.tool?.name) ?? [];

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
        <div className="flex flex-col items-end gap-2">
          <div className="flex flex-wrap items-center justify-end gap-2 text-sm" data-testid="trace-nav">
            {prevHref ? (
              <Link
                href={prevHref}
                className="rounded border border-slate-300 bg-white px-2 py-1 hover:bg-slate-50"
                data-testid="prev-link"
                rel="prev"
              >
                <span aria-hidden="true">← </span>previous{" "}
                <kbd className="ml-1 font-mono text-xs text-slate-500">k</kbd>
              </Link>
            ) : (
              <span
                className="rounded border border-slate-200 px-2 py-1 text-slate-400"
                data-testid="prev-none"
              >
                <span aria-hidden="true">← </span>no previous
              </span>
            )}
            {nextHref ? (
              <Link
                href={nextHref}
                className="rounded border border-slate-300 bg-white px-2 py-1 hover:bg-slate-50"
                data-testid="next-link"
                rel="next"
              >
                next <kbd className="ml-1 font-mono text-xs text-slate-500">j</kbd>
                <span aria-hidden="true"> →</span>
              </Link>
            ) : (
              <span
                className="rounded border border-slate-200 px-2 py-1 text-slate-400"
                data-testid="next-none"
              >
                no next<span aria-hidden="true"> →</span>
              </span>
            )}
            <Link
              href={backHref}
              className="rounded border border-slate-300 bg-white px-2 py-1 hover:bg-slate-50"
              data-testid="back-link"
            >
              back to run <kbd className="ml-1 font-mono text-xs text-slate-500">u</kbd>
            </Link>
          </div>
          <div className="flex items-center gap-2">
            <TraceKeys
              prevHref={prevHref}
              nextHref={nextHref}
              backHref={backHref}
              extraKeys={TRACE_REVIEW_KEY_HELP}
            />
          </div>
          <FilterNote filter={filter} inFilter={inFilter} />
        </div>
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
            <Card
              title="Tool schema"
              aside={
                <Link
                  href={`/probes/${encodeURIComponent(t.probeId)}?version=${t.probeVersion}`}
                  className="text-xs text-indigo-700 hover:underline"
                >
                  probe <Ident text={t.probeId} max={60} /> v{t.probeVersion}
                </Link>
              }
            >
              {t.probe?.tool ? (
                <ToolSchema
                  tool={t.probe.tool}
                  probed={probe?.fields ?? []}
                  requires={probe?.requires ?? []}
                />
              ) : (
                <p className="text-sm text-slate-600" data-testid="tool-schema">
                  This probe offers no tool that fits: the right answer is to say so, not to call.
                </p>
              )}
              {offered.length > 0 ? (
                <details className="mt-3 text-sm" data-testid="other-tools">
                  <summary className="cursor-pointer text-xs font-medium text-slate-500 uppercase">
                    Other tools offered ({offered.length})
                  </summary>
                  <div className="mt-2 space-y-3">
                    {offered.slice(0, 30).map((tool) => (
                      <ToolSchema key={tool.name} tool={tool} testId="other-tool" maxParams={20} />
                    ))}
                    {offered.length > 30 ? (
                      <CutNote>{`showing 30 of ${offered.length} tools`}</CutNote>
                    ) : null}
                  </div>
                </details>
              ) : null}
            </Card>
          </div>

          <SideEffect t={t} probe={probe} written={written} read={writtenRead} />
        </>
      )}

      <Card title="Trace">
        <Meta
          items={[
            [
              "Run",
              <Link key="run" href={runLink} className="font-mono text-indigo-700 hover:underline">
                <Ident text={t.run.name} />
              </Link>,
            ],
            [
              "Pinned model",
              <span key="m" className="font-mono">
                <Ident text={t.run.model ?? "—"} />
              </span>,
              "pinned-model",
            ],
            [
              "Payload model",
              <span key="pm" className="font-mono">
                <Ident text={t.payloadModel ?? "—"} />
                {t.result.flags.includes("model_mismatch") ? (
                  <span className="ml-2 font-sans text-xs font-semibold text-red-700">
                    <span aria-hidden="true">≠ </span>not the pinned model
                  </span>
                ) : null}
              </span>,
            ],
            ...(gateLog
              ? []
              : ([
                  [
                    "Probe",
                    <span key="p">
                      <Link
                        href={`/probes/${encodeURIComponent(t.probeId)}?version=${t.probeVersion}`}
                        className="inline-block py-1 font-mono text-indigo-700 hover:underline"
                        data-testid="probe-link"
                      >
                        <Ident text={t.probeId} /> v{t.probeVersion}
                      </Link>
                      {t.probeCurrentVersion !== null && t.probeCurrentVersion !== t.probeVersion ? (
                        <span className="ml-2 text-xs text-amber-900">
                          scored with v{t.probeVersion}; the current version is{" "}
                          <Link
                            href={`/probes/${encodeURIComponent(t.probeId)}`}
                            className="inline-block min-w-6 py-1 text-center underline"
                          >
                            v{t.probeCurrentVersion}
                          </Link>
                        </span>
                      ) : null}
                    </span>,
                  ],
                ] as [string, React.ReactNode][])),
            [
              "Record id",
              <span key="x" className="font-mono">
                <Ident text={t.extId ?? "—"} />
              </span>,
            ],
            ["Source", <Ident key="s" text={`${t.source}:${t.line}`} className="font-mono" />],
            [
              "Form",
              <span key="f" className="font-mono">
                {t.form}
              </span>,
            ],
            [
              "Started",
              <span key="st" className="font-mono">
                {t.startedAt ?? "—"}
              </span>,
            ],
            [
              "Latency",
              <span key="l">{t.latencyMs !== null ? `${t.latencyMs.toLocaleString("en-US")} ms` : "—"}</span>,
            ],
            ...(w2c
              ? ([
                  [
                    "When2Call answer",
                    <span key="wc" className="font-mono" data-testid="w2c-category">
                      {w2c.category ?? "—"}
                    </span>,
                  ],
                  [
                    "Correct answer",
                    <span key="wa" className="font-mono">
                      {String(w2c.correctAnswer ?? "—")}
                    </span>,
                  ],
                  [
                    "Held-out param",
                    <span key="wh" className="font-mono">
                      {String(w2c.heldOutParam ?? "none")}
                    </span>,
                  ],
                ] as [string, React.ReactNode][])
              : []),
          ]}
        />
        {t.reread.params !== undefined ? (
          <details className="mt-3 text-sm">
            <summary className="cursor-pointer text-xs font-medium text-slate-500 uppercase">
              Parameters
            </summary>
            <div className="mt-1">
              <SafeJsonBlock
                value={t.reread.params}
                maxChars={20_000}
                testId="params-json"
                links={traceLinks(t.id, "record", ["params"])}
              />
            </div>
          </details>
        ) : null}
      </Card>

      <Card
        title="Raw payload and original record"
        aside={<RecordDownloads id={t.id} bytes={t.original.bytes} raw={raw !== undefined} />}
      >
        <div className="space-y-2">
          <details className="text-sm" data-testid="raw-details">
            <summary className="cursor-pointer font-medium text-slate-700">
              Raw provider payload{raw === undefined ? " (none: the record gave the response directly)" : ""}
            </summary>
            <div className="mt-2">
              {raw !== undefined ? (
                <SafeJsonBlock
                  value={raw}
                  maxChars={SHOWN_JSON}
                  testId="raw-json"
                  links={traceLinks(t.id, "record", t.form === "payload" ? [] : ["raw"])}
                />
              ) : null}
            </div>
          </details>
          <details className="text-sm" data-testid="original-details">
            <summary className="cursor-pointer font-medium text-slate-700">
              Original record, formatted ({t.original.bytes.toLocaleString("en-US")} bytes
              {w2c ? "; a When2Call line, shared by its four answers" : ""})
            </summary>
            <div className="mt-2">
              {t.original.parseError === null ? (
                <SafeJsonBlock
                  value={t.original.parsed}
                  maxChars={SHOWN_JSON}
                  testId="original-json"
                  links={traceLinks(t.id, "record")}
                />
              ) : (
                <p className="text-sm text-amber-900">
                  It does not parse as JSON here: {t.original.parseError}
                </p>
              )}
            </div>
          </details>
          <details className="text-sm" data-testid="original-text-details">
            <summary className="cursor-pointer font-medium text-slate-700">
              Original record, as stored
              {t.original.binary ? " (not UTF-8: shown with replacement characters)" : ""}
            </summary>
            <div className="mt-2">
              <pre
                className="max-h-[32rem] overflow-auto rounded border border-slate-200 bg-slate-50 p-3 font-mono text-xs [overflow-wrap:anywhere] whitespace-pre-wrap"
                data-testid="original-text"
              >
                {breakable(
                  t.original.text.length > SHOWN_STRING
                    ? t.original.text.slice(0, SHOWN_STRING)
                    : t.original.text,
                )}
              </pre>
              {t.original.text.length > SHOWN_STRING ? (
                <CutNote>{`shown to ${SHOWN_STRING.toLocaleString("en-US")} of ${t.original.text.length.toLocaleString("en-US")} characters; download the record for all of it`}</CutNote>
              ) : null}
            </div>
          </details>
          <details className="text-sm">
            <summary className="cursor-pointer font-medium text-slate-700">
              Normalized response (what was scored)
            </summary>
            <div className="mt-2">
              <SafeJsonBlock
                value={t.response}
                maxChars={SHOWN_JSON}
                testId="response-json"
                links={traceLinks(t.id, "response")}
              />
            </div>
          </details>
        </div>
      </Card>
    </div>
  );
}
