import type { Metadata } from "next";
import { connection } from "next/server";
import { currentReviewer } from "@/app/_review/reviewer";
import { NewRoundForm } from "@/app/_rounds/NewRoundForm";
import { RoundToSetForm } from "@/app/_rounds/RoundToSetForm";
import { getDb } from "@/db/client";
import { modelsWithRuns } from "@/db/queries/agreement";
import { listRounds } from "@/db/queries/rounds";
import { disputedCount } from "@/db/queries/roundViews";

export const metadata: Metadata = { title: "Blind rounds" };

/**
 * Blind rounds: the list, with each round's progress by state, and the form that makes one.
 * Links are plain anchors: nothing here prefetches a page.
 */
export default async function RoundsPage() {
  await connection();
  const db = getDb();
  const rounds = listRounds(db);
  const runs = db.sqlite
    .prepare("SELECT name FROM runs ORDER BY id DESC LIMIT 500")
    .pluck()
    .all() as string[];
  const probes = db.sqlite.prepare("SELECT id FROM probes ORDER BY id").pluck().all() as string[];
  const disputed = disputedCount(db);
  const reviewer = await currentReviewer();
  return (
    <div className="space-y-4" data-testid="rounds-page">
      <div>
        <p className="text-sm">
          <a href="/review" className="text-indigo-700 underline">
            Review queue
          </a>{" "}
          /
        </p>
        <h1 className="text-xl font-semibold">Blind rounds</h1>
        <p className="max-w-prose text-sm text-slate-600">
          Each field of a scope goes to N reviewers who see the world and the response, not the scorer's label
          nor each other's. Fields where they agree are settled; where they differ, an adjudicator settles
          them.
        </p>
      </div>
      {disputed > 0 ? (
        <p className="rounded bg-amber-50 p-2 text-sm text-amber-900" data-testid="disputed-note">
          {disputed} disputed {disputed === 1 ? "field waits" : "fields wait"} for adjudication:{" "}
          <a href="/review/adjudicate" className="underline">
            adjudicate
          </a>
          .
        </p>
      ) : null}
      <section
        aria-labelledby="rounds-h"
        className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
      >
        <h2 id="rounds-h" className="mb-2 font-semibold">
          Rounds
        </h2>
        {rounds.length === 0 ? (
          <p className="text-sm text-slate-600" data-testid="rounds-empty">
            No round yet. Make one below: name it, pick a run, a probe or a model, and say how many reviewers
            see each field.
          </p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-sm" data-testid="rounds-table">
              <thead>
                <tr className="border-b text-left text-slate-500">
                  <th className="py-1 pr-3 font-medium">Round</th>
                  <th className="py-1 pr-3 font-medium">Scope</th>
                  <th className="py-1 pr-3 text-right font-medium">N</th>
                  <th className="py-1 pr-3 text-right font-medium">Fields</th>
                  <th className="py-1 pr-3 text-right font-medium">Agreed</th>
                  <th className="py-1 pr-3 text-right font-medium">Disputed</th>
                  <th className="py-1 pr-3 text-right font-medium">Adjudicated</th>
                  <th className="py-1 text-right font-medium">Single</th>
                </tr>
              </thead>
              <tbody>
                {rounds.map((r) => (
                  <tr key={r.id} className="border-b border-slate-100 last:border-0" data-testid="round-row">
                    <td className="py-1.5 pr-3">
                      <a
                        href={`/review/rounds/${r.id}`}
                        className="inline-block min-h-6 font-medium text-indigo-700 underline"
                      >
                        {r.name}
                      </a>
                    </td>
                    <td className="py-1.5 pr-3">
                      {r.scopeKind} <span className="font-mono">{r.scopeValue}</span>
                    </td>
                    <td className="py-1.5 pr-3 text-right tabular-nums">{r.reviewsPerField}</td>
                    <td className="py-1.5 pr-3 text-right tabular-nums">{r.counts.fields}</td>
                    <td className="py-1.5 pr-3 text-right tabular-nums">{r.counts.agreed}</td>
                    <td className="py-1.5 pr-3 text-right tabular-nums">{r.counts.disputed}</td>
                    <td className="py-1.5 pr-3 text-right tabular-nums">{r.counts.adjudicated}</td>
                    <td className="py-1.5 text-right tabular-nums">{r.counts.single}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <NewRoundForm serverReviewer={reviewer} runs={runs} probes={probes} models={modelsWithRuns(db)} />
      <RoundToSetForm rounds={rounds.map((r) => ({ id: r.id, name: r.name }))} />
    </div>
  );
}
