import Link from "next/link";
import { LabelChip } from "@/app/_components/LabelChip";
import type { Kappa } from "@/lib/review/agreement";
import type { AgreementSummary } from "@/lib/review/agreementView";
import { sharePct } from "@/lib/stats";

const pct = (x: number | null) => (x === null ? "none" : `${Math.round(x * 100)}%`);

/** Kappa as people read it: a number, or "none" with why. */
export function KappaText({ k }: { k: Kappa }) {
  if (k.n === 0)
    return (
      <span data-testid="kappa" data-kappa="none">
        κ none (no field to compare)
      </span>
    );
  if (k.kappa === null)
    return (
      <span data-testid="kappa" data-kappa="none" title="both sides gave every field the same one label">
        κ none on {k.n.toLocaleString("en-US")} fields (one label only)
      </span>
    );
  return (
    <span data-testid="kappa" data-kappa={k.kappa.toFixed(3)}>
      κ {k.kappa.toFixed(2)} on {k.n.toLocaleString("en-US")} fields
    </span>
  );
}

/** "agrees on N of M fields (p%)". */
export function AgreeText({ s }: { s: AgreementSummary }) {
  return (
    <span data-testid="agrees" data-agree={s.agree} data-total={s.total}>
      agrees on {s.agree.toLocaleString("en-US")} of {s.total.toLocaleString("en-US")} fields
      {s.total ? ` (${sharePct(s.agree, s.total, 0)})` : ""}
    </span>
  );
}

/**
 * Ours (rows) against the human label (columns) over the labels that occur, each cell linking to
 * its fields; per row our label's precision, per column the human label's recall.
 */
export function ConfusionTable({
  s,
  cellHref,
  testId = "confusion",
  caption = "rows: our label · columns: the human label (review, else imported)",
}: {
  s: AgreementSummary;
  cellHref: (ours: string, human: string) => string | null;
  testId?: string;
  caption?: string;
}) {
  const c = s.confusion;
  const scores = new Map(s.scores.map((x) => [x.label, x]));
  const shown = c.labels.filter((l) => {
    const x = scores.get(l);
    return x && (x.ours > 0 || x.human > 0);
  });
  const idx = new Map(c.labels.map((l, i) => [l, i]));
  return (
    <div className="overflow-x-auto">
      <table className="text-sm" data-testid={testId}>
        <caption className="mb-1 text-left text-xs text-slate-500">{caption}</caption>
        <thead>
          <tr className="text-xs text-slate-500">
            <th className="py-1 pr-2 text-left font-medium">ours ↓ human →</th>
            {shown.map((l) => (
              <th key={l} className="px-1 py-1 text-center font-medium">
                <LabelChip label={l} />
              </th>
            ))}
            <th className="px-2 py-1 text-right font-medium">precision</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((o) => (
            <tr key={o} className="border-t border-slate-100">
              <th scope="row" className="py-1 pr-2 text-left font-normal">
                <LabelChip label={o} />
              </th>
              {shown.map((h) => {
                const n = c.cells[idx.get(o) as number][idx.get(h) as number];
                const href = n > 0 ? cellHref(o, h) : null;
                return (
                  <td
                    key={h}
                    className={`px-1 py-1 text-center font-mono tabular-nums ${o === h ? "bg-emerald-50" : n > 0 ? "bg-red-50/60" : ""}`}
                    data-testid="cell"
                    data-ours={o}
                    data-human={h}
                    data-n={n}
                  >
                    {href ? (
                      <Link href={href} className="block rounded px-1.5 text-indigo-700 underline">
                        {n.toLocaleString("en-US")}
                      </Link>
                    ) : (
                      <span className={n === 0 ? "text-slate-300" : "text-slate-900"}>
                        {n === 0 ? "·" : n.toLocaleString("en-US")}
                      </span>
                    )}
                  </td>
                );
              })}
              <td className="px-2 py-1 text-right font-mono text-xs tabular-nums" data-testid="precision">
                {pct(scores.get(o)?.precision ?? null)}
              </td>
            </tr>
          ))}
          <tr className="border-t border-slate-200 text-xs">
            <th scope="row" className="py-1 pr-2 text-left font-medium text-slate-500">
              recall
            </th>
            {shown.map((h) => (
              <td key={h} className="px-1 py-1 text-center font-mono tabular-nums" data-testid="recall">
                {pct(scores.get(h)?.recall ?? null)}
              </td>
            ))}
            <td />
          </tr>
        </tbody>
      </table>
    </div>
  );
}
