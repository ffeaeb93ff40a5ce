import Link from "next/link";
import type { Db } from "@/db/client";
import { agreementCounts, probesWithRuns } from "@/db/queries/agreement";
import { groupProbes } from "@/lib/probeGroups";
import { agreementByGroup } from "@/lib/review/agreementView";

/**
 * One line per probe group (grouped as the probe filter groups them): how often the scorer agrees
 * with the human labels. Read from the kept agreement counts.
 */
export function AgreementLines({ db }: { db: Db }) {
  const lines = agreementByGroup(agreementCounts(db), groupProbes(probesWithRuns(db)));
  return (
    <section
      className="rounded-lg border border-slate-200 bg-white p-3 text-sm"
      data-testid="agreement-lines"
    >
      <h2 className="text-xs font-semibold tracking-wide text-slate-600 uppercase">
        <Link href="/agreement" className="hover:underline">
          Agreement with reviewers
        </Link>
      </h2>
      {lines.length === 0 ? (
        <p className="mt-1 text-slate-600">
          No field has a human label yet.{" "}
          <Link href="/review" className="text-indigo-700 underline">
            Review the likely misfires
          </Link>
        </p>
      ) : (
        <ul className="mt-1 space-y-0.5">
          {lines.map((l) => (
            <li key={l.group.key} data-testid="agreement-line" data-group={l.group.key}>
              <Link
                href={`/agreement?${new URLSearchParams({ group: l.group.key })}`}
                className="text-indigo-700 hover:underline"
              >
                {l.group.label}
              </Link>
              <span className="text-slate-700">
                : scorer agrees with reviewers on{" "}
                <span className="font-semibold text-slate-900">
                  {l.summary.agree.toLocaleString("en-US")} of {l.summary.total.toLocaleString("en-US")}
                </span>{" "}
                fields
                {l.summary.kappa.kappa === null ? "" : ` (κ ${l.summary.kappa.kappa.toFixed(2)})`}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
