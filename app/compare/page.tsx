import Link from "next/link";
import { notFound } from "next/navigation";
import { Card } from "@/app/_components/Card";
import { LabelChip } from "@/app/_components/LabelChip";
import { getDb } from "@/db/client";
import { changedTraces, labelTransitions } from "@/db/queries/compare";
import { getRunSummary } from "@/db/queries/runs";
import { runHref } from "@/lib/runPath";
import { ChangeTable } from "./ChangeTable";
import { TransitionMatrix } from "./TransitionMatrix";

export const metadata = { title: "Compare runs" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;

export default async function ComparePage({ searchParams }: Props) {
  const sp = await searchParams;
  const aName = one(sp.a);
  const bName = one(sp.b);
  if (!aName || !bName) notFound();
  const db = getDb();
  const a = getRunSummary(db, aName);
  const b = getRunSummary(db, bName);
  if (!a || !b) notFound();
  const fields = [...new Set([...a.fields, ...b.fields].map((f) => f.field))]
    .filter((f) => a.fields.some((x) => x.field === f) && b.fields.some((x) => x.field === f))
    .slice(0, 6);
  const commonProbes = a.probes.filter((p) => b.probes.some((q) => q.id === p.id)).slice(0, 20);
  const byProbe =
    commonProbes.length > 1
      ? commonProbes.map((p) => ({
          id: p.id,
          a: getRunSummary(db, aName, p.id),
          b: getRunSummary(db, bName, p.id),
        }))
      : [];
  const changed = changedTraces(db, a.id, b.id, 50);
  const transitions = changed.pairs > 0 ? labelTransitions(db, a.id, b.id) : {};
  const runLink = (name: string) => runHref(name);

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <p className="text-xs text-slate-500">
            <Link href="/" className="hover:underline">
              Runs
            </Link>{" "}
            / compare
          </p>
          <h1 className="text-xl font-semibold">
            <Link
              href={runLink(a.name)}
              className="font-mono text-indigo-700 hover:underline"
              data-testid="compare-a"
            >
              {a.name}
            </Link>{" "}
            <span className="text-slate-400">→</span>{" "}
            <Link
              href={runLink(b.name)}
              className="font-mono text-indigo-700 hover:underline"
              data-testid="compare-b"
            >
              {b.name}
            </Link>
          </h1>
          <p className="text-sm text-slate-600">
            before: {a.model} · {a.traceCount} traces · {a.date.slice(0, 10)} — after: {b.model} ·{" "}
            {b.traceCount} traces · {b.date.slice(0, 10)}
          </p>
        </div>
        <Link
          href={`/compare?${new URLSearchParams({ a: b.name, b: a.name })}`}
          className="rounded border border-slate-300 bg-white px-3 py-1.5 text-sm"
        >
          Swap
        </Link>
      </div>

      {fields.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-600">
          These runs share no probed field, so there are no rates to compare.
        </p>
      ) : (
        <div className="grid gap-4 lg:grid-cols-2">
          {fields.map((f) => (
            <Card key={f} title={<span className="font-mono normal-case">{f}</span>}>
              <ChangeTable
                field={f}
                a={a.fields.find((x) => x.field === f)}
                b={b.fields.find((x) => x.field === f)}
              />
            </Card>
          ))}
        </div>
      )}

      {byProbe.length > 0 ? (
        <Card title="By probe">
          <div className="grid gap-4 lg:grid-cols-2">
            {byProbe.map((p) => {
              const f = p.a?.fields[0]?.field;
              return f ? (
                <div key={p.id}>
                  <h3 className="mb-1 font-mono text-sm">
                    {p.id} · {f}
                  </h3>
                  <ChangeTable
                    field={f}
                    a={p.a?.fields.find((x) => x.field === f)}
                    b={p.b?.fields.find((x) => x.field === f)}
                  />
                </div>
              ) : null;
            })}
          </div>
        </Card>
      ) : null}

      <Card title="Traces whose labels changed">
        {changed.pairs === 0 ? (
          <p className="text-sm text-slate-600" data-testid="no-pairs">
            No trace id appears in both runs for the same probe, so traces cannot be paired; compare the rates
            above.
          </p>
        ) : (
          <>
            <p className="mb-2 text-sm text-slate-600" data-testid="pair-summary">
              {changed.pairs.toLocaleString("en-US")} trace ids appear in both runs for the same probe. How
              their labels moved (rows: before, columns: after; the diagonal did not change):
            </p>
            <div className="mb-4 grid gap-4 lg:grid-cols-2">
              {Object.entries(transitions)
                .slice(0, 6)
                .map(([field, m]) => (
                  <TransitionMatrix key={field} field={field} matrix={m} />
                ))}
            </div>
            <p className="mb-1 text-sm text-slate-600">
              {changed.changed.length === 50 ? "The first 50 traces" : `The ${changed.changed.length} traces`}{" "}
              whose labels changed:
            </p>
            {changed.changed.length > 0 ? (
              <table className="w-full text-sm" data-testid="changed-traces">
                <thead>
                  <tr className="text-left text-xs text-slate-500">
                    <th className="py-1 pr-3 font-medium">Trace id</th>
                    <th className="py-1 pr-3 font-medium">Before</th>
                    <th className="py-1 pr-3 font-medium">After</th>
                  </tr>
                </thead>
                <tbody>
                  {changed.changed.map((c) => (
                    <tr key={c.aId} className="border-t border-slate-100" data-testid="changed-trace">
                      <td className="py-1.5 pr-3 font-mono text-xs">{c.extId}</td>
                      <td className="py-1.5 pr-3">
                        <Link href={`/traces/${c.aId}`} className="flex flex-wrap gap-1">
                          {Object.entries(c.aLabels).map(([f, l]) => (
                            <LabelChip key={f} field={f} label={l} />
                          ))}
                        </Link>
                      </td>
                      <td className="py-1.5 pr-3">
                        <Link href={`/traces/${c.bId}`} className="flex flex-wrap gap-1">
                          {Object.entries(c.bLabels).map(([f, l]) => (
                            <LabelChip key={f} field={f} label={l} />
                          ))}
                        </Link>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
          </>
        )}
      </Card>
    </div>
  );
}
