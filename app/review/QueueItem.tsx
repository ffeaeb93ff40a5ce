import Link from "next/link";
import { Card } from "@/app/_components/Card";
import { WorldPanels } from "@/app/_components/WorldPanels";
import { FieldLabels } from "@/app/traces/[id]/FieldLabels";
import { ResponseText } from "@/app/traces/[id]/ResponseText";
import { ToolCall } from "@/app/traces/[id]/ToolCall";
import type { TraceDetail } from "@/db/queries/traceDetail";
import { askTermHits, markArguments } from "@/lib/probe/argumentMarks";
import { QUEUE_RULE_TEXT, type QueueRule } from "@/lib/review/queueRules";
import { runHref } from "@/lib/runPath";

/** Why the item is in the queue: the rule that put it there, and every other rule that holds. */
export function WhyQueued({
  t,
  rule,
  field,
  others,
}: {
  t: TraceDetail;
  rule: QueueRule | null;
  field: string;
  others: QueueRule[];
}) {
  return (
    <Card
      title="Why it is here"
      aside={
        <Link
          href={`/traces/${t.id}`}
          className="text-xs text-indigo-700 hover:underline"
          data-testid="queue-trace-link"
        >
          trace #{t.id}
        </Link>
      }
    >
      <div data-testid="queue-why" data-rule={rule ?? ""}>
        {rule ? (
          <>
            <p className="text-sm font-semibold text-slate-900">{QUEUE_RULE_TEXT[rule].title}</p>
            <p className="text-sm text-slate-700">
              <span className="font-mono">{field}</span>: {QUEUE_RULE_TEXT[rule].why}.
            </p>
          </>
        ) : (
          <p className="text-sm text-slate-700">No field of this trace waits in the queue now.</p>
        )}
        {others.length > 0 ? (
          <p className="mt-1 text-xs text-slate-600">
            Also: {others.map((r) => QUEUE_RULE_TEXT[r].title).join("; ")}.
          </p>
        ) : null}
        <p className="mt-2 text-xs text-slate-500">
          Run{" "}
          <Link href={runHref(t.run.name)} className="font-mono text-indigo-700 hover:underline">
            {t.run.name}
          </Link>{" "}
          · probe <span className="font-mono">{t.probeId}</span> v{t.probeVersion}
          {t.run.model ? (
            <>
              {" "}
              · model <span className="font-mono">{t.run.model}</span>
            </>
          ) : null}
        </p>
      </div>
    </Card>
  );
}

/**
 * What a reviewer needs to decide, as the trace page shows it (its own components): the text
 * with ask terms found or missed and question sentences marked, the call's arguments marked
 * against the visible state, the labels beside the others, the world.
 */
export function QueueEvidence({ t }: { t: TraceDetail }) {
  const probe = t.compiled;
  const view = probe ? markArguments(t.response, probe) : null;
  const hits = probe ? askTermHits(t.response.text, probe, undefined, t.response.verbatim === true) : null;
  const called = view !== null && view.kind !== "no_call";
  return (
    <div className="space-y-4">
      {!t.probe ? (
        <p className="rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900" role="alert">
          Version {t.probeVersion} of probe {t.probeId} is not in the database: the world and the marks cannot
          be shown.
        </p>
      ) : null}
      {called || !hits ? (
        <>
          <ToolCall t={t} view={view} probe={probe} />
          {hits ? <ResponseText t={t} hits={hits} called={called} /> : null}
        </>
      ) : (
        <>
          <ResponseText t={t} hits={hits} called={called} />
          <ToolCall t={t} view={view} probe={probe} />
        </>
      )}
      <FieldLabels t={t} focusField={null} />
      {t.probe ? <WorldPanels probe={t.probe} /> : null}
    </div>
  );
}
