import type { Metadata } from "next";
import { connection } from "next/server";
import { SafeJsonBlock } from "@/app/_components/SafeJsonBlock";
import { LongText, WorldPanels } from "@/app/_components/WorldPanels";
import { currentReviewer } from "@/app/_review/reviewer";
import { BlindLabelForm } from "@/app/_rounds/BlindLabelForm";
import { NameFirst } from "@/app/_rounds/NameFirst";
import { NextField } from "@/app/_rounds/NextField";
import { RevealCard } from "@/app/_rounds/Reveal";
import { getDb } from "@/db/client";
import { type Claim, claimNext, getRound, type Round } from "@/db/queries/rounds";
import { blindField, readableCalls, reveal, reviewerProgress } from "@/db/queries/roundViews";
import { write } from "@/db/write";
import { isUserError } from "@/lib/errors";
import { accessToken } from "@/lib/http/accessToken";

export const metadata: Metadata = { title: "Blind round" };

type Props = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/** `seen=TRACE:FIELD`: the field the reviewer just saved. */
function parseSeen(v: string | string[] | undefined): { traceId: number; field: string } | undefined {
  const s = Array.isArray(v) ? v[0] : v;
  const m = s ? /^(\d+):(.+)$/.exec(s) : null;
  return m ? { traceId: Number(m[1]), field: m[2] } : undefined;
}

/**
 * The blind page of a round: the next field for this reviewer, claimed with a lease, shown with
 * its world and response only: no scorer label, argument marks, ask-term highlights, queue reason,
 * history or other reviews, and no link that prefetches a page. After saving, the page loads with
 * `seen` and shows the scorer's label and the others'.
 */
export default async function BlindRoundPage({ params, searchParams }: Props) {
  await connection();
  const id = Number((await params).id);
  const sp = await searchParams;
  const db = getDb();
  const round = Number.isInteger(id) && id > 0 ? getRound(db, id) : undefined;
  if (!round)
    return (
      <div className="space-y-2" data-testid="blind-page" data-state="missing">
        <h1 className="text-xl font-semibold">No such round</h1>
        <p className="text-sm">
          There is no round {String((await params).id)}.{" "}
          <a href="/review/rounds" className="text-indigo-700 underline">
            All rounds
          </a>
        </p>
      </div>
    );
  const reviewer = await currentReviewer();
  const selfNamed = accessToken() === null;
  const seen = parseSeen(sp.seen);
  const header = (
    <div className="space-y-1">
      <p className="text-sm">
        <a href="/review/rounds" className="text-indigo-700 underline">
          Blind rounds
        </a>{" "}
        /
      </p>
      <h1 className="text-xl font-semibold">{round.name}</h1>
      <p className="text-sm text-slate-600">
        {round.scopeKind} <span className="font-mono">{round.scopeValue}</span>, {round.reviewsPerField}{" "}
        reviewers per field
        {round.participants ? `: ${round.participants.join(", ")}` : ", anyone may take part"}.
      </p>
      {selfNamed ? (
        <p className="text-xs text-slate-500" data-testid="self-named">
          This server has no access token: reviewers name themselves, and nothing checks who they are.
        </p>
      ) : null}
    </div>
  );

  if (!reviewer.name)
    return (
      <div className="space-y-4" data-testid="blind-page" data-state="name">
        {header}
        <NameFirst serverReviewer={reviewer} />
      </div>
    );

  const progress = reviewerProgress(db, round, reviewer.name);
  const progressLine = (
    <p className="text-sm text-slate-700" data-testid="blind-progress">
      You have reviewed <strong>{progress.done}</strong> of {progress.fields} fields; {progress.open} still
      need reviews.
    </p>
  );

  if (seen) {
    const r = reveal(db, round.id, seen.traceId, seen.field);
    return (
      <div className="space-y-4" data-testid="blind-page" data-state="reveal">
        {header}
        {progressLine}
        {r ? <RevealCard reveal={r} title="Saved: what the others said" /> : null}
        <NextField href={`/review/rounds/${round.id}`} />
      </div>
    );
  }

  let claim: Claim | undefined;
  let refused: string | undefined;
  try {
    claim = await write(db, () => claimNext(db, round.id, reviewer.name as string), { waitMs: 10_000 });
  } catch (e) {
    if (!isUserError(e)) throw e;
    refused = e.message;
  }
  if (refused || !claim)
    return (
      <div className="space-y-4" data-testid="blind-page" data-state={refused ? "refused" : "done"}>
        {header}
        {progressLine}
        <p className="rounded bg-slate-50 p-3 text-sm" data-testid="blind-empty">
          {refused ??
            "Nothing left for you in this round: every field you may review has been reviewed by you or has its reviewers."}{" "}
          <a href="/review/adjudicate" className="text-indigo-700 underline">
            Adjudication
          </a>
        </p>
      </div>
    );
  return (
    <BlindField round={round} claim={claim} reviewer={reviewer} header={header} progressLine={progressLine} />
  );
}

function BlindField({
  round,
  claim,
  reviewer,
  header,
  progressLine,
}: {
  round: Round;
  claim: Claim;
  reviewer: Awaited<ReturnType<typeof currentReviewer>>;
  header: React.ReactNode;
  progressLine: React.ReactNode;
}) {
  const f = blindField(getDb(), claim.traceId, claim.field);
  if (!f) return null;
  const done = `/review/rounds/${round.id}?seen=${claim.traceId}:${encodeURIComponent(claim.field)}`;
  return (
    <div className="space-y-4" data-testid="blind-page" data-state="field" data-trace-id={claim.traceId}>
      {header}
      {progressLine}
      <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,24rem)_minmax(0,1fr)]">
        <div className="space-y-2 lg:sticky lg:top-4">
          <h2 className="text-lg font-semibold">
            Field{" "}
            <span className="font-mono" data-testid="blind-field">
              {claim.field}
            </span>
          </h2>
          <p className="text-sm text-slate-600">
            Probe <span className="font-mono">{f.probeId}</span>. What should the scorer say about this field
            in the response?
          </p>
          <BlindLabelForm
            roundId={round.id}
            traceId={claim.traceId}
            field={claim.field}
            serverReviewer={reviewer}
            mode="blind"
            doneHref={done}
          />
        </div>
        <div className="space-y-4">
          <section
            className="space-y-2 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
            aria-labelledby="blind-response-h"
            data-testid="blind-response"
          >
            <h2
              id="blind-response-h"
              className="text-sm font-semibold tracking-wide text-slate-700 uppercase"
            >
              Response
            </h2>
            {f.response.text ? (
              <div className="rounded bg-slate-50 p-2">
                <LongText text={f.response.text} testId="blind-text" />
              </div>
            ) : (
              <p className="text-sm text-slate-500 italic">no text</p>
            )}
            <h3 className="text-xs font-medium text-slate-500 uppercase">Tool calls</h3>
            {f.response.tool_calls.length ? (
              <SafeJsonBlock value={readableCalls(f.response.tool_calls)} testId="blind-calls" />
            ) : (
              <p className="text-sm text-slate-500 italic">no tool call</p>
            )}
          </section>
          {f.probe ? <WorldPanels probe={f.probe} /> : null}
        </div>
      </div>
    </div>
  );
}
