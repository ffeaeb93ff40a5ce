import type { Metadata } from "next";
import { connection } from "next/server";
import { z } from "zod";
import { currentReviewer } from "@/app/_review/reviewer";
import { getDb } from "@/db/client";
import { modelsWithRuns, probesWithRuns } from "@/db/queries/agreement";
import {
  nextQueueItem,
  parsePosition,
  positionToParam,
  type QueueItem,
  queueProgress,
  resolveScope,
  runsWithWaiting,
} from "@/db/queries/queue";
import { currentReviews, humanLabelsOf, reviewJson } from "@/db/queries/reviews";
import { backfillPending } from "@/db/queries/tagBackfill";
import { getTraceDetail } from "@/db/queries/traceDetail";
import { groupProbes } from "@/lib/probeGroups";
import { queueRulesOf, queueSlot } from "@/lib/review/queueRules";
import { ProgressLine, ScopeForm, type ScopeValues } from "./QueueHeader";
import { QueueEvidence, WhyQueued } from "./QueueItem";
import { type PanelField, QueuePanel } from "./QueuePanel";
import { EmptyQueue, EndOfSkips, FinishedScope } from "./QueueStates";

export const metadata: Metadata = { title: "Review queue" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const text = z.preprocess((v) => (Array.isArray(v) ? v[0] : v) || undefined, z.string().max(200).optional());
const QueryParams = z.object({
  run: text,
  probe: text,
  model: text,
  after: text,
  field: text,
  trace: z
    .preprocess(
      (v) => (Array.isArray(v) ? v[0] : v) || undefined,
      z.coerce.number().int().positive().optional(),
    )
    .catch(undefined),
});

function href(scope: ScopeValues, extra: Record<string, string> = {}) {
  const p = new URLSearchParams();
  for (const k of ["run", "probe", "model"] as const) if (scope[k]) p.set(k, scope[k] as string);
  for (const [k, v] of Object.entries(extra)) p.set(k, v);
  const q = p.toString();
  return q ? `/review?${q}` : "/review";
}

export default async function ReviewQueuePage({ searchParams }: Props) {
  await connection();
  const q = QueryParams.catch({} as z.infer<typeof QueryParams>).parse(await searchParams);
  const scope: ScopeValues = { run: q.run, probe: q.probe, model: q.model };
  const scoped = Boolean(q.run || q.probe || q.model);
  const db = getDb();
  const s = resolveScope(db, scope);
  const t0 = performance.now();
  const after = parsePosition(q.after);
  let item: QueueItem | null = null;
  if (q.trace === undefined) item = nextQueueItem(db, s, after);
  const nextMs = performance.now() - t0;
  const progress = queueProgress(db, s);
  const t =
    q.trace !== undefined
      ? await getTraceDetail(db, q.trace)
      : item
        ? await getTraceDetail(db, item.traceId)
        : undefined;
  const groups = groupProbes(probesWithRuns(db));
  const runs = db.sqlite.prepare("SELECT name FROM runs ORDER BY id DESC").pluck().all() as string[];

  const header = (
    <div className="space-y-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-xl font-semibold">Review queue</h1>
          <p className="text-sm text-slate-600">
            The fields most likely to be the scorer's misfires, rule by rule. Label one with a key; the next
            comes up.
          </p>
          <p className="text-sm">
            <a href="/review/rounds" className="text-indigo-700 underline" data-testid="rounds-link">
              Blind rounds
            </a>{" "}
            <span className="text-slate-500">(reviewers label without seeing the scorer or each other)</span>
          </p>
        </div>
        <ScopeForm scope={scope} runs={runs} groups={groups} models={modelsWithRuns(db)} />
      </div>
      {q.run && s.runIds?.length === 0 ? (
        <p role="alert" className="rounded bg-amber-50 p-2 text-sm text-amber-900" data-testid="unknown-run">
          There is no run named <span className="font-mono">{q.run}</span>
          {q.model ? ` with model ${q.model}` : ""}.
        </p>
      ) : null}
      {backfillPending(db) ? (
        <p
          role="status"
          className="rounded bg-amber-50 p-2 text-sm text-amber-900"
          data-testid="backfill-pending"
        >
          Traces stored before the queue existed are not in it yet: run <code>assumeprobe setup</code> (npm
          start does) to add them.
        </p>
      ) : null}
      <ProgressLine p={progress} />
    </div>
  );

  if (!t) {
    const others = runsWithWaiting(db).filter((o) => o.name !== q.run);
    return (
      <div className="space-y-4" data-testid="review-page" data-state="none">
        {header}
        {q.trace !== undefined ? (
          <p role="alert" className="rounded bg-amber-50 p-2 text-sm text-amber-900">
            There is no trace #{q.trace}.
          </p>
        ) : progress.total === 0 ? (
          <EmptyQueue others={others} run={q.run} scoped={scoped} />
        ) : progress.waitingTotal === 0 ? (
          <FinishedScope p={progress} others={others} run={q.run} scoped={scoped} />
        ) : (
          <EndOfSkips p={progress} startHref={href(scope)} />
        )}
      </div>
    );
  }

  const reviews = currentReviews(db, t.id);
  const reviewer = await currentReviewer();
  const rules = queueRulesOf({
    fields: t.result.fields,
    flags: t.result.flags,
    text: t.response.text,
    imported: t.human,
    recorded: t.recorded,
  });
  const human = humanLabelsOf(Object.keys(t.result.fields), reviews, t.human);
  const fields: PanelField[] = Object.entries(t.result.fields).map(([field, score]) => {
    const r = reviews.get(field);
    return {
      field,
      ours: score.label,
      rules: rules[field] ?? [],
      current: r ? reviewJson(r) : null,
      human: human[field] ?? null,
    };
  });
  const waiting = (f: PanelField) => f.rules.length > 0 && !f.current?.label;
  const rule = item?.rule ?? fields.find(waiting)?.rules[0] ?? null;
  const focus =
    (q.field && fields.find((f) => f.field === q.field)?.field) ??
    fields.find((f) => waiting(f) && f.rules[0] === rule)?.field ??
    fields.find(waiting)?.field ??
    fields[0]?.field ??
    "";
  const focused = fields.find((f) => f.field === focus);
  const position =
    item ?? (rule ? { slot: queueSlot(rule, t.result.fields), runId: t.run.id, traceId: t.id } : null);
  const skipHref = position ? href(scope, { after: positionToParam(position) }) : href(scope);

  return (
    <div
      // Room at the end for the phone's bar of label buttons (QueuePanel).
      className="space-y-4 max-lg:pb-36"
      data-testid="review-page"
      data-state="item"
      data-trace-id={t.id}
      data-rule={rule ?? ""}
      data-next-ms={nextMs.toFixed(2)}
    >
      {header}
      <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,24rem)_minmax(0,1fr)]">
        <div className="space-y-4 lg:sticky lg:top-4">
          <QueuePanel
            // A review of this trace brings a new focus from the server: start the panel afresh.
            key={`${t.id}:${Math.max(0, ...[...reviews.values()].map((r) => r.id))}`}
            traceId={t.id}
            serverReviewer={reviewer}
            fields={fields}
            focus={focus}
            skipHref={skipHref}
            traceHref={`/traces/${t.id}`}
            itemHref={href(scope, after ? { after: positionToParam(after) } : {})}
            continueHref={
              q.trace !== undefined ? href(scope, after ? { after: positionToParam(after) } : {}) : null
            }
          />
          <WhyQueued
            t={t}
            rule={rule}
            field={focus}
            others={(focused?.rules ?? []).filter((r) => r !== rule)}
          />
        </div>
        <QueueEvidence t={t} />
      </div>
    </div>
  );
}
