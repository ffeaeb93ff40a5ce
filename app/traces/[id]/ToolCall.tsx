import { ArgumentTable, MarkLegend } from "@/app/_components/ArgumentMarks";
import { breakable, identifier } from "@/app/_components/Breakable";
import { Card } from "@/app/_components/Card";
import { FLAG_MEANING } from "@/app/_components/FlagList";
import { LabelChip } from "@/app/_components/LabelChip";
import { LeftOutNote } from "@/app/_components/LeftOut";
import { CutNote, SafeJsonBlock } from "@/app/_components/SafeJsonBlock";
import type { TraceDetail } from "@/db/queries/traceDetail";
import { cutOf } from "@/lib/budget/jsonBudget";
import type { ArgumentView } from "@/lib/probe/argumentMarks";
import type { CompiledProbe } from "@/lib/probe/compile";
import { traceLinks } from "./links";

/** The raw string of arguments that did not parse, or any raw value, as inert text. */
function RawArguments({ value }: { value: unknown }) {
  if (typeof value === "string") {
    const cut = value.length > 20_000;
    return (
      <>
        <pre
          className="max-h-64 overflow-auto rounded border border-slate-200 bg-slate-50 p-2 font-mono text-xs [overflow-wrap:anywhere] whitespace-pre-wrap"
          data-testid="raw-arguments"
        >
          {breakable(cut ? value.slice(0, 20_000) : value)}
        </pre>
        {cut ? (
          <CutNote>{`shown to 20,000 of ${value.length.toLocaleString("en-US")} characters`}</CutNote>
        ) : null}
      </>
    );
  }
  return <SafeJsonBlock value={value} testId="raw-arguments" maxChars={20_000} />;
}

/** The scored call: every argument as the model sent it, marked; omitted probed fields listed. */
export function ToolCall({
  t,
  view,
  probe,
}: {
  t: TraceDetail;
  view: ArgumentView | null;
  probe: CompiledProbe | null;
}) {
  const calls = t.response.tool_calls;
  const callCount = cutOf(calls)?.total ?? calls.length;
  const requires = probe?.requires ?? [];
  const flags = t.result.flags;
  const argsCut = view?.kind === "call" ? view.cut : undefined;
  return (
    <Card
      title="Tool call"
      aside={
        callCount > 1 ? (
          <span className="text-xs text-slate-600">
            {callCount.toLocaleString("en-US")} calls; only the first is scored
          </span>
        ) : null
      }
    >
      <div data-testid="tool-call" data-kind={view?.kind ?? "unknown"}>
        {view === null ? (
          <p className="text-sm text-amber-900">
            The probe version that scored this trace is missing; arguments cannot be marked.
          </p>
        ) : view.kind === "no_call" ? (
          <p className="text-sm text-slate-600">
            <span aria-hidden="true">∅ </span>No call
            {calls.length > 0 ? " (the first call is empty, which counts as none)" : ""}. The labels come from
            the response text.
          </p>
        ) : view.kind === "not_object" ? (
          <div>
            <p className="text-sm text-slate-800">
              <LabelChip label="ERROR" /> {view.error}
            </p>
            <RawArguments value={view.call} />
          </div>
        ) : view.kind === "unreadable" ? (
          <div className="space-y-2">
            <p className="text-sm">
              <span className="ident font-mono font-semibold">{identifier(view.name ?? "(no name)")}</span>
            </p>
            <p className="text-sm text-slate-800">
              <LabelChip label="ERROR" /> {view.error}. Every probed field is ERROR; the gate fails the call.
            </p>
            <h3 className="text-xs font-medium text-slate-500 uppercase">Arguments as sent</h3>
            <RawArguments value={view.rawArguments} />
          </div>
        ) : view.kind === "clarify" ? (
          <div className="space-y-2">
            <p className="text-sm">
              A call to the clarify tool{" "}
              <span className="ident font-mono font-semibold">{identifier(view.name)}</span>: it asks, so the
              fields it names are ASK.
            </p>
            <SafeJsonBlock value={view.arguments} maxChars={20_000} />
          </div>
        ) : (
          <div className="space-y-2">
            <p className="flex flex-wrap items-center gap-2 text-sm">
              <span className="ident font-mono font-semibold" data-testid="call-name">
                {identifier(view.name ?? "(no name)")}
              </span>
              {view.wrongTool ? (
                <span
                  className="rounded bg-red-50 px-1.5 py-0.5 text-xs text-red-800 ring-1 ring-red-600/30 ring-inset"
                  title={FLAG_MEANING.wrong_tool}
                >
                  <span aria-hidden="true">⚠ </span>wrong tool: the probe's tool is{" "}
                  {probe?.toolName ?? "none"}
                </span>
              ) : null}
              {view.argumentsWereString ? (
                <span className="text-xs text-slate-500">arguments arrived as a JSON string</span>
              ) : null}
              {flags.includes("ask_and_call") ? (
                <span className="text-xs text-amber-900" title={FLAG_MEANING.ask_and_call}>
                  <span aria-hidden="true">⚑ </span>asked and called in the same turn
                </span>
              ) : null}
            </p>
            {argsCut ? (
              <p className="text-xs text-amber-900" data-testid="arguments-count">
                <span aria-hidden="true">✂ </span>
                {argsCut.total?.toLocaleString("en-US") ?? "Many"} arguments,{" "}
                {argsCut.shown.toLocaleString("en-US")} shown: the first ones and every probed or required
                one, wherever it is.
              </p>
            ) : null}
            <ArgumentTable args={view.args} omitted={view.omitted} requires={requires} />
            {argsCut ? (
              <LeftOutNote
                cut={argsCut}
                noun="arguments"
                kept="the first ones, and every probed or required one wherever it is"
                testId="arguments-left-out"
                {...traceLinks(t.id, "response", ["tool_calls", 0, "arguments"])}
              />
            ) : null}
            {view.omitted.length > 0 ? (
              <p className="text-sm text-slate-700" data-testid="omitted-fields">
                <span className="font-medium">Omitted probed fields:</span>{" "}
                {view.omitted.map((o, i) => (
                  <span key={o.field}>
                    {i > 0 ? ", " : ""}
                    <span className="font-mono">{o.field}</span>
                    {o.sentEmpty ? " (sent empty)" : " (not sent)"}
                  </span>
                ))}
              </p>
            ) : (
              <p className="text-sm text-slate-500" data-testid="omitted-fields">
                No probed field was omitted.
              </p>
            )}
            <details className="text-sm">
              <summary className="cursor-pointer text-xs font-medium text-slate-500 uppercase">
                Arguments exactly as sent
              </summary>
              <div className="mt-1">
                <RawArguments value={view.rawArguments} />
              </div>
            </details>
            <MarkLegend />
          </div>
        )}
        {callCount > 1 ? (
          <details className="mt-3 text-sm" data-testid="other-calls">
            <summary className="cursor-pointer text-xs font-medium text-slate-500 uppercase">
              Other calls ({(callCount - 1).toLocaleString("en-US")}, not scored)
            </summary>
            <div className="mt-1">
              <SafeJsonBlock value={calls.slice(1, 50)} maxChars={50_000} />
              {callCount > 50 ? (
                <LeftOutNote
                  cut={{ total: callCount - 1, shown: Math.min(49, calls.length - 1), from: 0 }}
                  noun="other calls"
                  {...traceLinks(t.id, "response", ["tool_calls"])}
                />
              ) : null}
            </div>
          </details>
        ) : null}
      </div>
    </Card>
  );
}
