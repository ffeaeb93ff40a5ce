import Link from "next/link";
import type { QueueProgress, ScopeChoice } from "@/db/queries/queue";
import { runHref } from "@/lib/runPath";

const link = "text-indigo-700 underline";

function queueHref(run: string) {
  return `/review?${new URLSearchParams({ run })}`;
}

/** Where else there is something to review, and where the results are. */
function Elsewhere({ others, run, scoped }: { others: ScopeChoice[]; run?: string; scoped: boolean }) {
  return (
    <div className="space-y-2 text-sm">
      {others.length > 0 ? (
        <div>
          <p className="text-slate-700">Runs with fields waiting:</p>
          <ul className="mt-1 space-y-1" data-testid="other-scopes">
            {others.map((o) => (
              <li key={o.name}>
                <Link href={queueHref(o.name)} className={`${link} font-mono [overflow-wrap:anywhere]`}>
                  {o.name}
                </Link>{" "}
                <span className="text-slate-500">
                  {o.waiting.toLocaleString("en-US")} waiting{o.model ? ` · ${o.model}` : ""}
                </span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <p className="flex flex-wrap gap-x-4 gap-y-1">
        {scoped ? (
          <Link href="/review" className={link}>
            The queue over every run
          </Link>
        ) : null}
        {run ? (
          <Link href={runHref(run, "human=differs")} className={link}>
            Fields of {run} where humans differ from ours
          </Link>
        ) : null}
        <Link href="/agreement" className={link}>
          Agreement with reviewers
        </Link>
        <Link href="/" className={link}>
          All runs
        </Link>
      </p>
    </div>
  );
}

const box = "space-y-3 rounded-lg border bg-white p-4 sm:p-6";

/** No rule queues any field in this scope. */
export function EmptyQueue({
  others,
  run,
  scoped,
}: {
  others: ScopeChoice[];
  run?: string;
  scoped: boolean;
}) {
  return (
    <div className={`${box} border-dashed border-slate-300`} data-testid="queue-empty">
      <h2 className="text-base font-semibold">Nothing to review in this scope</h2>
      <p className="text-sm text-slate-600">
        No field here is a likely misfire: no DRIFT whose text asks a question, no label that a recorded or
        imported one contradicts, no fenced, unparsed or wrong-tool call, no INJECT the user typed.
      </p>
      <Elsewhere others={others} run={run} scoped={scoped} />
    </div>
  );
}

/** Every queued field of the scope has a review. */
export function FinishedScope({
  p,
  others,
  run,
  scoped,
}: {
  p: QueueProgress;
  others: ScopeChoice[];
  run?: string;
  scoped: boolean;
}) {
  return (
    <div className={`${box} border-emerald-300`} data-testid="queue-finished">
      <h2 className="text-base font-semibold text-emerald-900">This scope is done</h2>
      <p className="text-sm text-slate-700">
        All {p.total.toLocaleString("en-US")} queued fields have a review:{" "}
        {p.corrects.toLocaleString("en-US")} corrected ours, {p.confirms.toLocaleString("en-US")} confirmed
        it.
      </p>
      <Elsewhere others={others} run={run} scoped={scoped} />
    </div>
  );
}

/** The reviewer skipped past the last item; the skipped ones still wait. */
export function EndOfSkips({ p, startHref }: { p: QueueProgress; startHref: string }) {
  return (
    <div className={`${box} border-dashed border-slate-300`} data-testid="queue-end">
      <h2 className="text-base font-semibold">No item after the ones you skipped</h2>
      <p className="text-sm text-slate-700">
        {p.waitingTotal.toLocaleString("en-US")} fields of this scope still wait for a review.{" "}
        <Link href={startHref} className={link} data-testid="queue-restart">
          Start again from the first
        </Link>
      </p>
    </div>
  );
}
