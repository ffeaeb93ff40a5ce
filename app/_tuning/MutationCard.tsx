import Link from "next/link";
import { Card } from "@/app/_components/Card";
import type { MutationReport } from "@/db/queries/mutation";
import { describeMutant } from "@/lib/tuning/mutation";

const n = (x: number) => x.toLocaleString("en-US");
const LISTED = 4;

/**
 * The mutation check: for each ask term (and the clarify tool), the fixtures that pass now and fail
 * without it. A term no fixture needs is dead: nothing curated would notice it gone.
 */
export function MutationCard({ report }: { report: MutationReport }) {
  const dead = report.results.filter((r) => r.dead);
  const what = report.subject.kind === "lexicon" ? "lexicon term" : "ask term and the clarify tool";
  return (
    <Card
      title="Mutation check"
      aside={
        <span className="text-xs text-slate-500" data-testid="mutation-summary">
          {n(report.results.length)} checked against {n(report.passing)} passing fixtures · {n(dead.length)}{" "}
          dead
        </span>
      }
    >
      <p className="mb-2 text-xs text-slate-600">
        For each {what}: the fixtures (every set) that fail without it. A dead one is kept by no fixture:
        noise, or a case the sets are missing.
      </p>
      {report.results.length === 0 ? (
        <p className="text-sm text-slate-500 italic" data-testid="mutation-empty">
          {report.subject.kind === "lexicon"
            ? "The lexicon holds no terms yet."
            : "This probe lists no terms of its own and no clarify tool."}
        </p>
      ) : (
        <ul className="divide-y divide-slate-100 text-sm" data-testid="mutation-list">
          {report.results.map((r) => (
            <li
              key={describeMutant(r.mutant)}
              className="flex flex-wrap items-baseline gap-x-3 gap-y-1 py-1.5"
              data-testid="mutant"
              data-dead={r.dead ? "true" : "false"}
              data-mutant={describeMutant(r.mutant)}
            >
              <span className="font-mono [overflow-wrap:anywhere]">{describeMutant(r.mutant)}</span>
              {r.dead ? (
                <span
                  className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900"
                  data-testid="dead-term"
                >
                  dead
                </span>
              ) : (
                <span className="text-xs text-slate-600">
                  {n(r.needed.length)} fixture{r.needed.length === 1 ? " fails" : "s fail"} without it:{" "}
                  {r.needed.slice(0, LISTED).map((f, i) => (
                    <span key={`${f.set}/${f.identity}`}>
                      {i > 0 ? ", " : ""}
                      <Link
                        href={`/fixtures/${encodeURIComponent(f.set)}/${f.identity}`}
                        className="font-mono text-indigo-700 hover:underline"
                      >
                        {f.set} {f.identity.slice(0, 8)}
                      </Link>
                    </span>
                  ))}
                  {r.needed.length > LISTED ? ` and ${n(r.needed.length - LISTED)} more` : ""}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
