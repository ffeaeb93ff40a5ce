import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { LabelChip } from "@/app/_components/LabelChip";
import { getDb } from "@/db/client";
import { agreementCounts, probesWithRuns } from "@/db/queries/agreement";
import { firstParam } from "@/lib/http/searchParam";
import { groupProbes } from "@/lib/probeGroups";
import { cellTargets, runPageHref } from "@/lib/review/agreementView";
import { parseAgreementScope, scopeParams } from "../scope";

export const metadata: Metadata = { title: "Agreement cell" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const one = (v: string | string[] | undefined) => firstParam(v) ?? "";

/** Where one matrix cell's fields are: each run, probe and field, linking to the run page's filter. */
export default async function AgreementCellPage({ searchParams }: Props) {
  await connection();
  const sp = await searchParams;
  const scope = parseAgreementScope(sp);
  const ours = one(sp.ours).toUpperCase().slice(0, 20);
  const human = one(sp.human).toUpperCase().slice(0, 20);
  const db = getDb();
  const group = scope.group ? groupProbes(probesWithRuns(db)).find((g) => g.key === scope.group) : undefined;
  const counts = agreementCounts(db, { model: scope.model, run: scope.run }).filter(
    (c) =>
      (!group || group.probes.includes(c.probeId)) &&
      (!scope.probe || c.probeId === scope.probe) &&
      (!scope.field || c.field === scope.field),
  );
  const targets = cellTargets(counts, ours, human);
  const total = targets.reduce((a, t) => a + t.n, 0);
  return (
    <div className="space-y-4" data-testid="agreement-cell">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-600">
        <Link href={`/agreement?${scopeParams(scope)}`} className="hover:underline">
          Agreement
        </Link>
        <span aria-hidden="true"> › </span>
        <span>cell</span>
      </nav>
      <h1 className="flex flex-wrap items-center gap-2 text-xl font-semibold">
        Ours <LabelChip label={ours} />, human <LabelChip label={human} />
        <span className="text-base font-normal text-slate-600">
          {total.toLocaleString("en-US")} fields{group ? ` in ${group.label}` : ""}
          {scope.model ? ` · model ${scope.model}` : ""}
          {scope.run ? ` · run ${scope.run}` : ""}
        </span>
      </h1>
      {targets.length === 0 ? (
        <p className="text-sm text-slate-600">No field has these labels in this scope.</p>
      ) : (
        <ul className="space-y-1 text-sm" data-testid="cell-targets">
          {targets.map((t) => (
            <li key={`${t.run}\u0000${t.probeId}\u0000${t.field}`} data-testid="cell-target">
              <Link
                href={runPageHref(t, ours, human)}
                className="font-mono text-indigo-700 underline [overflow-wrap:anywhere]"
              >
                {t.run}
              </Link>{" "}
              <span className="text-slate-600">
                · {t.probeId} · <span className="font-mono">{t.field}</span> · {t.n.toLocaleString("en-US")}{" "}
                fields
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
