import Link from "next/link";
import type { ReactNode } from "react";
import { Card } from "@/app/_components/Card";
import { LabelChip } from "@/app/_components/LabelChip";
import type { Kappa } from "@/lib/review/agreement";
import { figureText, type InterRater, intervalText, type PairAgreement } from "@/lib/review/interRater";
import { sharePct } from "@/lib/stats";

const n = (x: number) => x.toLocaleString("en-US");
const th = "py-1 pr-3 font-medium";
const num = "py-1 pr-3 text-right font-mono tabular-nums";
const pairKey = (p: { a: string; b: string }) => `${p.a}\u0000${p.b}`;

function KappaCell({ k }: { k: Kappa }) {
  return (
    <span
      data-kappa={k.kappa === null ? "none" : k.kappa.toFixed(3)}
      title={k.kappa === null ? "one label only" : ""}
    >
      {figureText(k.kappa)}
    </span>
  );
}

/**
 * "Between reviewers": the first blind review of each reviewer per field compared with the
 * others' (lib/review/interRater.ts). `any` says whether a blind review exists at all, for the
 * empty state.
 */
export function BetweenReviewers({
  figures,
  any,
  scoped,
}: {
  figures: InterRater;
  any: boolean;
  scoped: boolean;
}) {
  const f = figures;
  return (
    <Card title="Between reviewers">
      <div className="space-y-4" data-testid="between-reviewers">
        {f.fields === 0 ? (
          <div className="space-y-1 text-sm text-slate-600" data-testid="between-reviewers-empty">
            <p className="font-medium text-slate-800">
              {any && scoped
                ? "No field in this scope has two blind labels yet."
                : "No field has two blind reviews yet."}
            </p>
            <p>
              A blind round gives each field to two reviewers or more without showing the scorer's label or
              each other's; their first reviews are compared here (Cohen's kappa per pair, Krippendorff's
              alpha over all). Start one from the{" "}
              <Link href="/review" prefetch={false} className="text-indigo-700 underline">
                review queue
              </Link>
              , or label from a script with <code>assumeprobe label --blind</code>.
            </p>
          </div>
        ) : (
          <>
            <p
              className="text-sm text-slate-800"
              data-testid="alpha"
              data-alpha={f.alpha.alpha?.toFixed(3) ?? "none"}
            >
              Krippendorff's α <span className="font-mono">{figureText(f.alpha.alpha)}</span>{" "}
              <span className="text-slate-600">
                (95% {intervalText(f.alpha.interval)}) over {n(f.fields)} fields with two labels or more,{" "}
                {n(f.reviewers.length)} reviewers
              </span>
            </p>
            <div className="grid items-start gap-4 lg:grid-cols-3">
              <PairTable pairs={f.pairs} />
              <ReviewerTable figures={f} />
              <LabelPairTable figures={f} />
            </div>
            <div>
              {f.pairs.map((p) => (
                <PairConfusion key={pairKey(p)} pair={p} />
              ))}
            </div>
          </>
        )}
      </div>
    </Card>
  );
}

/** A column of a FigureTable: a column without its own class holds a number (right-aligned, mono). */
interface Column<T> {
  head: string;
  cell: (row: T) => ReactNode;
  className?: string;
  title?: (row: T) => string;
}

/**
 * One of the small figure tables side by side: a titled table whose rows are headed by `rowHead`
 * (its class adds to the shared one), each carrying the `data-*` attributes `rowData` gives.
 */
function FigureTable<T>({
  title,
  testId,
  rows,
  rowKey,
  rowData,
  rowHead,
  columns,
}: {
  title: string;
  testId: string;
  rows: T[];
  rowKey: (row: T) => string;
  rowData: (row: T) => Record<`data-${string}`, string | number>;
  rowHead: { head: string; className: string; cell: (row: T) => ReactNode };
  columns: Column<T>[];
}) {
  return (
    <div className="min-w-0">
      <h3 className="mb-1 text-xs font-medium text-slate-500 uppercase">{title}</h3>
      <div className="overflow-x-auto">
        <table className="text-sm" data-testid={testId}>
          <thead className="text-left text-xs text-slate-500">
            <tr>
              <th className={th}>{rowHead.head}</th>
              {columns.map((c) => (
                <th key={c.head} className={c.className ? th : `${th} text-right`}>
                  {c.head}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={rowKey(r)} className="border-t border-slate-100" {...rowData(r)}>
                <th scope="row" className={`py-1 pr-3 text-left font-normal ${rowHead.className}`}>
                  {rowHead.cell(r)}
                </th>
                {columns.map((c) => (
                  <td key={c.head} className={c.className ?? num} title={c.title?.(r)}>
                    {c.cell(r)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function PairTable({ pairs }: { pairs: PairAgreement[] }) {
  return (
    <FigureTable
      title="Per pair: Cohen's κ over the fields both reviewed"
      testId="reviewer-pairs"
      rows={pairs}
      rowKey={pairKey}
      rowData={(p) => ({ "data-testid": "reviewer-pair", "data-a": p.a, "data-b": p.b, "data-n": p.n })}
      rowHead={{ head: "reviewers", className: "[overflow-wrap:anywhere]", cell: (p) => `${p.a} · ${p.b}` }}
      columns={[
        { head: "fields", cell: (p) => n(p.n) },
        { head: "agree", cell: (p) => sharePct(p.agree, p.n, 0) },
        { head: "κ", cell: (p) => <KappaCell k={p.kappa} /> },
        {
          head: "95%",
          className: "py-1 font-mono text-xs whitespace-nowrap tabular-nums",
          cell: (p) => intervalText(p.interval),
        },
      ]}
    />
  );
}

function ReviewerTable({ figures }: { figures: InterRater }) {
  return (
    <FigureTable
      title="Per reviewer: agreement with the others"
      testId="reviewer-agreement"
      rows={figures.perReviewer}
      rowKey={(r) => r.reviewer}
      rowData={(r) => ({ "data-testid": "reviewer", "data-reviewer": r.reviewer })}
      rowHead={{ head: "reviewer", className: "[overflow-wrap:anywhere]", cell: (r) => r.reviewer }}
      columns={[
        { head: "fields", cell: (r) => n(r.fields) },
        {
          head: "agree",
          cell: (r) => sharePct(r.agree, r.comparisons, 0),
          title: (r) => `${n(r.agree)} of ${n(r.comparisons)} comparisons with another reviewer`,
        },
        {
          head: "95%",
          className: "py-1 pr-3 font-mono text-xs whitespace-nowrap tabular-nums",
          cell: (r) => intervalText({ low: r.rate.low, high: r.rate.high }),
        },
        { head: "κ", cell: (r) => <KappaCell k={r.kappa} /> },
      ]}
    />
  );
}

function LabelPairTable({ figures }: { figures: InterRater }) {
  const total = figures.labelPairs.reduce((s, p) => s + p.n, 0);
  return (
    <FigureTable
      title="Label pairs two reviewers gave one field, disagreements first"
      testId="label-pairs"
      rows={figures.labelPairs}
      rowKey={pairKey}
      rowData={(p) => ({ "data-testid": "label-pair", "data-a": p.a, "data-b": p.b, "data-n": p.n })}
      rowHead={{
        head: "labels",
        className: "whitespace-nowrap",
        cell: (p) => (
          <>
            <LabelChip label={p.a} /> {p.a === p.b ? "both" : "against"}{" "}
            {p.a === p.b ? null : <LabelChip label={p.b} />}
          </>
        ),
      }}
      columns={[
        { head: "times", cell: (p) => n(p.n) },
        { head: "share", cell: (p) => sharePct(p.n, total, 0) },
      ]}
    />
  );
}

/** One pair's confusion: a's label (rows) against b's (columns), over the labels either gave. */
function PairConfusion({ pair }: { pair: PairAgreement }) {
  const c = pair.confusion;
  const shown = c.labels
    .map((l, i) => ({ l, i }))
    .filter(({ i }) => c.cells[i].some((x) => x > 0) || c.cells.some((row) => row[i] > 0));
  return (
    <details className="text-sm" data-testid="pair-confusion" data-a={pair.a} data-b={pair.b}>
      <summary className="cursor-pointer py-1 text-slate-700">
        Confusion of <span className="[overflow-wrap:anywhere]">{pair.a}</span> against{" "}
        <span className="[overflow-wrap:anywhere]">{pair.b}</span>
      </summary>
      <div className="overflow-x-auto">
        <table className="mt-1 text-sm">
          <caption className="mb-1 text-left text-xs text-slate-500">
            rows: {pair.a} · columns: {pair.b}
          </caption>
          <thead>
            <tr className="text-xs text-slate-500">
              <th className="py-1 pr-2" />
              {shown.map(({ l }) => (
                <th key={l} className="px-1 py-1 text-center font-medium">
                  <LabelChip label={l} />
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map(({ l, i }) => (
              <tr key={l} className="border-t border-slate-100">
                <th scope="row" className="py-1 pr-2 text-left font-normal">
                  <LabelChip label={l} />
                </th>
                {shown.map(({ l: m, i: j }) => (
                  <td
                    key={m}
                    className={`px-2 py-1 text-right font-mono tabular-nums ${i === j ? "bg-slate-50" : c.cells[i][j] ? "text-rose-700" : "text-slate-300"}`}
                  >
                    {n(c.cells[i][j])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
