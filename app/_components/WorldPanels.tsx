import { PAGE_BUDGET } from "@/lib/budget/jsonBudget";
import type { Probe } from "@/lib/probe/schema";
import { InlineValue } from "./ArgumentMarks";
import { breakable, identifier } from "./Breakable";
import { CutNote } from "./SafeJsonBlock";

const MAX_TEXT = 20_000;
/** Rows of a state table: an inline probe can carry thousands of keys. */
const MAX_ROWS = PAGE_BUDGET.entries;

/** A state object as key/value rows; values as capped inline JSON (inline probes come from trace files). */
export function SafeStateTable({ state, testId }: { state: Record<string, unknown>; testId?: string }) {
  const keys = Object.keys(state);
  const entries = keys.slice(0, MAX_ROWS).map((k) => [k, state[k]] as const);
  if (entries.length === 0)
    return (
      <p className="text-sm text-slate-500 italic" data-testid={testId}>
        empty
      </p>
    );
  return (
    <>
      <table className="w-full text-sm" data-testid={testId}>
        <tbody>
          {entries.map(([k, v]) => (
            <tr key={k} className="border-b border-slate-100 last:border-0">
              <th
                scope="row"
                className="w-2/5 py-1 pr-4 text-left align-top font-mono font-normal text-slate-500"
              >
                <span className="ident">{identifier(k)}</span>
              </th>
              <td className="py-1 [overflow-wrap:anywhere]">
                {typeof v === "string" ? (
                  <span className="font-mono">{breakable(v.length > 2000 ? `${v.slice(0, 2000)}…` : v)}</span>
                ) : (
                  <InlineValue value={v} />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {keys.length > MAX_ROWS ? (
        <CutNote>{`showing ${MAX_ROWS} of ${keys.length.toLocaleString("en-US")} keys`}</CutNote>
      ) : null}
    </>
  );
}

/** Long text as inert, wrapped text, cut with a note. */
export function LongText({
  text,
  testId,
  className = "",
}: {
  text: string;
  testId?: string;
  className?: string;
}) {
  const cut = text.length > MAX_TEXT;
  return (
    <>
      <p
        className={`max-h-[28rem] overflow-auto text-sm [overflow-wrap:anywhere] whitespace-pre-wrap ${className}`}
        data-testid={testId}
      >
        {breakable(cut ? text.slice(0, MAX_TEXT) : text)}
      </p>
      {cut ? (
        <CutNote>{`text shown to ${MAX_TEXT.toLocaleString("en-US")} of ${text.length.toLocaleString("en-US")} characters`}</CutNote>
      ) : null}
    </>
  );
}

/**
 * The visible world (what the model was shown) beside the hidden one (the truth it was not),
 * set apart: dashed amber border, an eye-slash icon and the words "not shown to the model".
 */
export function WorldPanels({ probe, systemOpen = false }: { probe: Probe; systemOpen?: boolean }) {
  return (
    <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <section
        className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
        data-testid="visible-world"
        aria-labelledby="visible-world-h"
      >
        <div className="mb-3 flex items-baseline justify-between gap-2">
          <h2 id="visible-world-h" className="text-sm font-semibold tracking-wide text-slate-700 uppercase">
            Visible world
          </h2>
          <span className="rounded bg-sky-50 px-1.5 py-0.5 text-xs text-sky-800 ring-1 ring-sky-600/30 ring-inset">
            <span aria-hidden="true">◉ </span>shown to the model
          </span>
        </div>
        <h3 className="text-xs font-medium text-slate-500 uppercase">Redacted state</h3>
        <SafeStateTable state={probe.redacted} testId="redacted-state" />
        <h3 className="mt-3 text-xs font-medium text-slate-500 uppercase">User message</h3>
        <div className="mt-1 rounded bg-slate-50 p-2">
          <LongText text={probe.user} testId="user-text" />
        </div>
        {probe.system ? (
          <details className="mt-3" open={systemOpen}>
            <summary className="cursor-pointer text-xs font-medium text-slate-500 uppercase">
              System prompt
            </summary>
            <div className="mt-1 rounded bg-slate-50 p-2 font-mono text-xs">
              <LongText text={probe.system} testId="system-text" className="text-xs" />
            </div>
          </details>
        ) : null}
      </section>
      <section
        className="rounded-lg border-2 border-dashed border-amber-400 bg-amber-50/50 p-4"
        data-testid="hidden-world"
        aria-labelledby="hidden-world-h"
      >
        <div className="mb-3 flex items-baseline justify-between gap-2">
          <h2 id="hidden-world-h" className="text-sm font-semibold tracking-wide text-amber-900 uppercase">
            Hidden world
          </h2>
          <span
            className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900 ring-1 ring-amber-600/40 ring-inset"
            data-testid="not-shown"
          >
            <span aria-hidden="true">⊘ </span>NOT shown to the model
          </span>
        </div>
        <p className="mb-2 text-xs text-amber-900">
          The truth. A value from here in a call is contamination: the model could not have known it.
        </p>
        <SafeStateTable state={probe.hidden} testId="hidden-state" />
      </section>
    </div>
  );
}
