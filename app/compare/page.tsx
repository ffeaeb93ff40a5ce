import Link from "next/link";
import { notFound } from "next/navigation";
import { Ident } from "@/app/_components/Breakable";
import { Card } from "@/app/_components/Card";
import { ScrollBox } from "@/app/_components/ScrollBox";
import { getDb } from "@/db/client";
import { labelTransitions, type PairCell } from "@/db/queries/compare";
import { getRunSummary, listRunSummaries } from "@/db/queries/runs";
import { firstParam } from "@/lib/http/searchParam";
import { LABELS } from "@/lib/probe/schema";
import { runHref } from "@/lib/runPath";
import { ChangedTraces } from "./ChangedTraces";
import { ChangeTable } from "./ChangeTable";
import { CompareForm, compareDefaults } from "./CompareForm";
import { MatrixLegend, TransitionMatrix } from "./TransitionMatrix";

export const metadata = { title: "Compare runs" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };
const one = (v: string | string[] | undefined) => firstParam(v) || undefined;
const cursor = (v: string | undefined) => (v && /^[1-9][0-9]{0,15}$/.test(v) ? Number(v) : undefined);

export default async function ComparePage({ searchParams }: Props) {
  const sp = await searchParams;
  const aName = one(sp.a);
  const bName = one(sp.b);
  const db = getDb();
  if (!aName || !bName) return <ChooseRuns a={aName} b={bName} />;
  const a = getRunSummary(db, aName);
  const b = getRunSummary(db, bName);
  if (!a || !b) notFound();
  if (a.id === b.id) return <ChooseRuns a={aName} b={bName} same />;

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
  const transitions = labelTransitions(db, a.id, b.id);
  const cellField = one(sp.field);
  const from = one(sp.from);
  const to = one(sp.to);
  const labels = LABELS as readonly string[];
  const cell: PairCell | undefined =
    cellField && from && to && transitions[cellField] && labels.includes(from) && labels.includes(to)
      ? { field: cellField, from, to }
      : undefined;
  const base = new URLSearchParams({ a: a.name, b: b.name });
  const href = (extra: Record<string, string>) => {
    const p = new URLSearchParams(base);
    for (const [k, v] of Object.entries(extra)) p.set(k, v);
    return `/compare?${p}`;
  };
  const cellParams: Record<string, string> = cell ? { field: cell.field, from: cell.from, to: cell.to } : {};
  const runLink = (name: string) => runHref(name);

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
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
              <Ident text={a.name} />
            </Link>{" "}
            <span className="text-slate-400">→</span>{" "}
            <Link
              href={runLink(b.name)}
              className="font-mono text-indigo-700 hover:underline"
              data-testid="compare-b"
            >
              <Ident text={b.name} />
            </Link>
          </h1>
          <p className="text-sm text-slate-600">
            before: <Ident text={a.model ?? "—"} className="font-mono" /> · {a.traceCount} traces ·{" "}
            {a.date.slice(0, 10)} — after: <Ident text={b.model ?? "—"} className="font-mono" /> ·{" "}
            {b.traceCount} traces · {b.date.slice(0, 10)}
          </p>
        </div>
        <div className="flex gap-2">
          <Link
            href={`/compare?${new URLSearchParams({ a: b.name, b: a.name })}`}
            className="rounded border border-slate-300 bg-white px-3 py-1.5 text-sm"
          >
            Swap
          </Link>
          <Link href="/compare" className="rounded border border-slate-300 bg-white px-3 py-1.5 text-sm">
            Other runs
          </Link>
        </div>
      </div>

      {fields.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-600">
          These runs share no probed field, so there are no rates to compare.
        </p>
      ) : (
        <div className="grid gap-4 lg:grid-cols-2">
          {fields.map((f) => (
            <Card key={f} title={<Ident text={f} className="font-mono normal-case" />}>
              <ScrollBox label={`Rates of ${f}`}>
                <ChangeTable
                  field={f}
                  a={a.fields.find((x) => x.field === f)}
                  b={b.fields.find((x) => x.field === f)}
                />
              </ScrollBox>
            </Card>
          ))}
        </div>
      )}
      {fields.length > 0 ? (
        <p className="text-xs text-slate-500">
          A change is called beyond sampling noise when a two-proportion z-test puts it outside 95%; ✗ marks
          one for the worse (more INJECT, DRIFT or ERROR, or fewer of the others), ✓ one for the better.
        </p>
      ) : null}

      {byProbe.length > 0 ? (
        <Card title="By probe">
          <div className="grid gap-4 lg:grid-cols-2">
            {byProbe.map((p) => {
              const f = p.a?.fields[0]?.field;
              return f ? (
                <div key={p.id} className="min-w-0">
                  <h3 className="mb-1 font-mono text-sm">
                    <Ident text={p.id} /> · <Ident text={f} />
                  </h3>
                  <ScrollBox label={`Rates of ${p.id}`}>
                    <ChangeTable
                      field={f}
                      a={p.a?.fields.find((x) => x.field === f)}
                      b={p.b?.fields.find((x) => x.field === f)}
                    />
                  </ScrollBox>
                </div>
              ) : null;
            })}
          </div>
        </Card>
      ) : null}

      <Card title="Traces whose labels changed">
        {Object.keys(transitions).length === 0 ? (
          <p className="text-sm text-slate-600" data-testid="no-pairs">
            No trace id appears in both runs for the same probe, so traces cannot be paired; compare the rates
            above.
          </p>
        ) : (
          <>
            <p className="mb-2 text-sm text-slate-600" data-testid="pair-summary">
              Trace ids that appear in both runs for the same probe, by how their labels moved (rows: before,
              columns: after; the diagonal did not change):
            </p>
            <MatrixLegend />
            <div className="mt-2 mb-4 grid gap-4 lg:grid-cols-2">
              {Object.entries(transitions)
                .slice(0, 6)
                .map(([field, m]) => (
                  <ScrollBox key={field} label={`Transitions of ${field}`}>
                    <TransitionMatrix
                      field={field}
                      matrix={m}
                      cellHref={(f, t) => `${href({ field, from: f, to: t })}#changed`}
                      selected={cell?.field === field ? cell : undefined}
                    />
                  </ScrollBox>
                ))}
            </div>
            <ChangedTraces
              aRunId={a.id}
              bRunId={b.id}
              cell={cell}
              after={cursor(one(sp.after))}
              before={cursor(one(sp.before))}
              pageHref={(k, id) => `${href({ ...cellParams, [k]: String(id) })}#changed`}
              allHref={`${href({})}#changed`}
            />
          </>
        )}
      </Card>
    </div>
  );
}

/** No runs named, one, or the same run twice: say which, and offer the form. */
function ChooseRuns({ a, b, same = false }: { a?: string; b?: string; same?: boolean }) {
  const runs = listRunSummaries(getDb());
  const names = runs.map((r) => r.name);
  const known = (n?: string) => (n && names.includes(n) ? n : undefined);
  const d = compareDefaults(runs);
  const defaults = { a: known(a) ?? d?.a, b: same ? d?.b : (known(b) ?? d?.b) };
  if (same && defaults.a === defaults.b) defaults.b = names.find((n) => n !== defaults.a);
  return (
    <div className="max-w-3xl space-y-4" data-testid="compare-start">
      <div>
        <p className="text-xs text-slate-500">
          <Link href="/" className="hover:underline">
            Runs
          </Link>{" "}
          / compare
        </p>
        <h1 className="text-xl font-semibold">Compare two runs</h1>
        <p className="mt-1 text-sm text-slate-600">
          Per field, how each label rate moved from the run before to the run after, with both intervals and
          whether the move is beyond sampling noise; for trace ids in both runs, which traces changed label.
        </p>
      </div>
      {same ? (
        <p
          role="status"
          className="rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
          data-testid="same-run"
        >
          Both sides are run <Ident text={a ?? ""} className="font-mono" />: a run compared with itself has
          nothing that changed. Pick another run for one side.
        </p>
      ) : a || b ? (
        <p role="status" className="text-sm text-slate-700" data-testid="one-run">
          Pick the run to compare <Ident text={(a ?? b) as string} className="font-mono" /> with.
        </p>
      ) : null}
      {names.length < 2 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-600">
          {names.length === 0 ? "There are no runs yet." : "There is only one run so far."} Comparing needs
          two:{" "}
          <Link href="/upload" className="text-indigo-700 underline">
            upload
          </Link>{" "}
          or ingest another.
        </p>
      ) : (
        <CompareForm runs={names} defaults={defaults} titled={false} />
      )}
    </div>
  );
}
