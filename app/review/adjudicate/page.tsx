import type { Metadata } from "next";
import { connection } from "next/server";
import { SafeJsonBlock } from "@/app/_components/SafeJsonBlock";
import { LongText, WorldPanels } from "@/app/_components/WorldPanels";
import { currentReviewer } from "@/app/_review/reviewer";
import { BlindLabelForm } from "@/app/_rounds/BlindLabelForm";
import { RevealCard } from "@/app/_rounds/Reveal";
import { getDb } from "@/db/client";
import { blindField, disputedCount, disputedFields, readableCalls, reveal } from "@/db/queries/roundViews";

export const metadata: Metadata = { title: "Adjudication" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * The adjudication queue: disputed fields of blind rounds. The adjudicator sees every review with
 * its note and the scorer's label, and writes the settled label.
 */
export default async function AdjudicatePage({ searchParams }: Props) {
  await connection();
  const sp = await searchParams;
  const db = getDb();
  const list = disputedFields(db);
  const total = disputedCount(db);
  const want = { round: Number(one(sp.round)), trace: Number(one(sp.trace)), field: one(sp.field) };
  const item =
    list.find((d) => d.roundId === want.round && d.traceId === want.trace && d.field === want.field) ??
    list[0];
  const reviewer = await currentReviewer();
  const r = item ? reveal(db, item.roundId, item.traceId, item.field) : undefined;
  const f = item ? blindField(db, item.traceId, item.field) : undefined;
  return (
    <div className="space-y-4" data-testid="adjudicate-page" data-state={item ? "item" : "empty"}>
      <div>
        <p className="text-sm">
          <a href="/review/rounds" className="text-indigo-700 underline">
            Blind rounds
          </a>{" "}
          /
        </p>
        <h1 className="text-xl font-semibold">Adjudication</h1>
        <p className="text-sm text-slate-600" data-testid="adjudicate-count">
          {total === 0
            ? "No disputed field: every field reviewed blind by several reviewers is agreed or settled."
            : `${total} disputed ${total === 1 ? "field" : "fields"}: the reviewers differ, so the field has no human label until you settle it.`}
        </p>
      </div>
      {item && r && f ? (
        <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,24rem)_minmax(0,1fr)]">
          <div className="space-y-4">
            <RevealCard reveal={r} title={`Round ${item.roundName}: the reviews`} />
            <BlindLabelForm
              roundId={item.roundId}
              traceId={item.traceId}
              field={item.field}
              serverReviewer={reviewer}
              mode="adjudicate"
              doneHref="/review/adjudicate"
            />
            {list.length > 1 ? (
              <nav
                aria-label="Disputed fields"
                className="rounded-lg border border-slate-200 bg-white p-4 text-sm"
              >
                <h2 className="mb-1 font-semibold">Waiting</h2>
                <ul className="space-y-1">
                  {list.slice(0, 20).map((d) => (
                    <li key={`${d.roundId}:${d.traceId}:${d.field}`}>
                      <a
                        className="inline-block min-h-6 text-indigo-700 underline"
                        href={`/review/adjudicate?round=${d.roundId}&trace=${d.traceId}&field=${encodeURIComponent(d.field)}`}
                      >
                        {d.roundName}: #{d.traceId} {d.field}
                      </a>
                    </li>
                  ))}
                </ul>
              </nav>
            ) : null}
          </div>
          <div className="space-y-4">
            <section
              className="space-y-2 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
              aria-label="Response"
            >
              <h2 className="text-sm font-semibold tracking-wide text-slate-700 uppercase">Response</h2>
              {f.response.text ? (
                <div className="rounded bg-slate-50 p-2">
                  <LongText text={f.response.text} />
                </div>
              ) : (
                <p className="text-sm text-slate-500 italic">no text</p>
              )}
              {f.response.tool_calls.length ? (
                <SafeJsonBlock value={readableCalls(f.response.tool_calls)} />
              ) : null}
              <p className="text-sm">
                <a href={`/traces/${item.traceId}`} className="text-indigo-700 underline">
                  Open the trace page
                </a>
              </p>
            </section>
            {f.probe ? <WorldPanels probe={f.probe} /> : null}
          </div>
        </div>
      ) : null}
    </div>
  );
}
