import Link from "next/link";
import { Ident } from "@/app/_components/Breakable";
import { Card } from "@/app/_components/Card";
import { SafeJsonBlock } from "@/app/_components/SafeJsonBlock";
import type { TraceDetail } from "@/db/queries/traceDetail";
import { traceLinks } from "./links";

/** The card titled "Trace": where the trace came from (run, models, probe, record, timing) and its parameters. */
export function ProvenanceCard({
  t,
  runLink,
  gateLog,
}: {
  t: TraceDetail;
  runLink: string;
  gateLog: boolean;
}) {
  const w2c = t.reread.when2call;
  return (
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
  );
}

/** Small label/value pairs of a trace's provenance. */
function Meta({ items }: { items: [string, React.ReactNode, string?][] }) {
  return (
    <dl
      className="grid grid-cols-1 gap-x-3 gap-y-1 text-sm sm:grid-cols-[9rem_minmax(0,1fr)]"
      data-testid="trace-meta"
    >
      {items.map(([k, v, testId]) => (
        <div key={k} className="contents">
          <dt className="text-slate-500 max-sm:mt-1 max-sm:text-xs">{k}</dt>
          <dd className="[overflow-wrap:anywhere]" data-testid={testId}>
            {v}
          </dd>
        </div>
      ))}
    </dl>
  );
}
