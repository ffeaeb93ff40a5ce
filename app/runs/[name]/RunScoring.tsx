import Link from "next/link";
import { Ident } from "@/app/_components/Breakable";
import { LabelChip } from "@/app/_components/LabelChip";
import { When } from "@/app/_components/When";
import type { ReviewerState } from "@/app/_review/useReviewer";
import { RescoreControl } from "@/app/_tuning/RescoreControl";
import type { RescoreProgressView, RescoreReport } from "@/db/queries/rescore/jobs";
import type { RunScoringView } from "@/db/queries/runScoringView";
import { NOT_SCORED } from "@/lib/probe/transitions";

const n = (x: number) => x.toLocaleString("en-US");
const REASONS: Record<string, string> = {
  configuration: "the configuration changed",
  "parser-flags": "an upgrade (parser and flags)",
};

/**
 * Which probe and lexicon versions scored the run, whether the current configuration would score
 * it otherwise (with a re-score), and each re-score's transitions.
 */
export function RunScoring({
  run,
  scoring,
  rescores,
  running,
  reviewer,
}: {
  run: string;
  scoring: RunScoringView;
  rescores: RescoreReport[];
  running: RescoreProgressView[];
  reviewer: ReviewerState;
}) {
  return (
    <section
      className="rounded-lg border border-slate-200 bg-white p-4 text-sm shadow-sm"
      data-testid="run-scoring"
      data-stale={scoring.stale ? "yes" : "no"}
    >
      <p>
        <span className="text-sm font-semibold tracking-wide text-slate-700 uppercase">Scoring</span>{" "}
        <span className="text-slate-600" data-testid="scored-with">
          scored with{" "}
          {scoring.probes.map((p, i) => (
            <span key={`${p.probe}@${p.probeVersion}@${p.lexiconVersion}`}>
              {i > 0 ? ", " : ""}
              <Link
                href={`/probes/${encodeURIComponent(p.probe)}?version=${p.probeVersion}`}
                className="font-mono text-indigo-700 hover:underline"
              >
                <Ident text={p.probe} max={60} /> v{p.probeVersion}
              </Link>{" "}
              · <span className="font-mono">lexicon v{p.lexiconVersion}</span>
            </span>
          ))}
          {scoring.probes.length === 0 ? "—" : null}
        </span>
        {scoring.stale ? (
          <span
            className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900"
            data-testid="newer-config"
          >
            a newer configuration scores it otherwise
          </span>
        ) : (
          <span className="ml-2 text-xs text-slate-500">the current configuration</span>
        )}
      </p>
      <div className="mt-2 space-y-3 empty:hidden">
        {scoring.probes
          .filter((p) => p.newer)
          .map((p) => (
            <p
              key={`${p.probe}@${p.probeVersion}`}
              className="text-sm text-amber-900"
              data-testid="newer-detail"
            >
              <span className="font-mono">{p.probe}</span>: {p.newer}
            </p>
          ))}
        <RescoreControl
          scope={{ kind: "run", run }}
          label="Re-score with the current configuration"
          reviewer={reviewer}
          running={running}
          testId="run-rescore"
          canStart={scoring.stale}
        />
        {rescores.length > 0 ? (
          <details open={rescores[0].changed > 0 || undefined} data-testid="rescores-box">
            <summary className="cursor-pointer text-xs font-medium text-slate-500 uppercase">
              Re-scores ({rescores.length}
              {rescores.length === 5 ? "+" : ""}), the latest: {n(rescores[0].changed)} changed
            </summary>
            <ol className="mt-1 space-y-2" data-testid="rescores">
              {rescores.map((r) => (
                <RescoreItem key={r.id} r={r} />
              ))}
            </ol>
          </details>
        ) : null}
      </div>
    </section>
  );
}

function RescoreItem({ r }: { r: RescoreReport }) {
  const moves: { field: string; from: string; to: string; count: number; examples: number[] }[] = [];
  for (const [field, byFrom] of Object.entries(r.transitions.fields))
    for (const [from, byTo] of Object.entries(byFrom))
      for (const [to, count] of Object.entries(byTo))
        moves.push({
          field,
          from,
          to,
          count,
          examples: r.transitions.examples[`${field}:${from}>${to}`] ?? [],
        });
  moves.sort((a, b) => b.count - a.count);
  const flags = [
    ...Object.entries(r.transitions.flags.gained).map(([f, c]) => `+${f} ${n(c)}`),
    ...Object.entries(r.transitions.flags.lost).map(([f, c]) => `−${f} ${n(c)}`),
  ];
  return (
    <li className="rounded border border-slate-100 p-2" data-testid="rescore-item" data-changed={r.changed}>
      <p className="text-xs text-slate-600">
        <span className="font-mono">
          <When iso={r.finishedAt ?? r.createdAt} />
        </span>{" "}
        · {REASONS[r.reason] ?? r.reason}
        {r.requestedBy ? ` · by ${r.requestedBy}` : ""}
        {r.plan ? (
          <span className="font-mono">
            {" "}
            · applied{" "}
            {Object.entries(r.plan.probes)
              .map(([id, v]) => `${id} v${v}`)
              .join(", ")}{" "}
            lexicon v{r.plan.lexicon}
          </span>
        ) : null}
        {r.status === "pending" ? " · running" : ""}
      </p>
      <p>
        {n(r.scanned)} traces read, {n(r.checked)} scored again, <strong>{n(r.changed)}</strong> changed
        {r.skipped ? `, ${n(r.skipped)} could not be re-read (kept as stored)` : ""}
      </p>
      {moves.length > 0 ? (
        <ul className="mt-1 space-y-0.5 text-xs" data-testid="rescore-moves">
          {moves.map((m) => (
            <li
              key={`${m.field}:${m.from}>${m.to}`}
              className="flex flex-wrap items-center gap-1"
              data-testid="rescore-move"
              data-field={m.field}
              data-from={m.from}
              data-to={m.to}
              data-count={m.count}
            >
              <span className="font-mono">{m.field}</span>
              {m.from === NOT_SCORED ? <span>none</span> : <LabelChip label={m.from} />} →{" "}
              {m.to === NOT_SCORED ? <span>none</span> : <LabelChip label={m.to} />}
              <span className="tabular-nums">{n(m.count)}</span>
              {m.examples.map((id) => (
                <Link key={id} href={`/traces/${id}`} className="font-mono text-indigo-700 hover:underline">
                  #{id}
                </Link>
              ))}
            </li>
          ))}
        </ul>
      ) : null}
      {flags.length > 0 ? (
        <p className="mt-1 font-mono text-xs text-slate-600">flags {flags.join(", ")}</p>
      ) : null}
    </li>
  );
}
