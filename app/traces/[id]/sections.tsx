import { ArgumentTable, InlineValue, MarkLegend } from "@/app/_components/ArgumentMarks";
import { breakable, identifier } from "@/app/_components/Breakable";
import { Card } from "@/app/_components/Card";
import { FactsTable } from "@/app/_components/FactsTable";
import { FLAG_MEANING, FlagList } from "@/app/_components/FlagList";
import { GATE_MEANING, GateBadge } from "@/app/_components/GateBadge";
import { LabelChip } from "@/app/_components/LabelChip";
import { LeftOutNote } from "@/app/_components/LeftOut";
import { CutNote, SafeJsonBlock } from "@/app/_components/SafeJsonBlock";
import type { TraceDetail } from "@/db/queries/traceDetail";
import { cutOf } from "@/lib/budget/jsonBudget";
import { DECISION_TABLE, type DecisionRow } from "@/lib/gate/decisionTable";
import type { Fact } from "@/lib/gate/facts";
import { type ArgumentView, type AskTermHits, markValues } from "@/lib/probe/argumentMarks";
import type { CompiledProbe } from "@/lib/probe/compile";
import type { FieldScore, ReadArgs } from "@/lib/probe/score";
import { questionSentences } from "@/lib/review/question";
import { QUESTION_REASON_TEXT, questionRuns } from "@/lib/review/questionMarks";
import { traceLinks } from "./links";

/** Per field: our label with its evidence, beside the recorded and imported human labels (reviews: ReviewPanel). */
export function FieldLabels({ t, focusField }: { t: TraceDetail; focusField: string | null }) {
  const fields = Object.entries(t.result.fields);
  const side = t.result.side_effect?.fields;
  return (
    <Card
      title="Labels per field"
      aside={<span className="text-xs text-slate-500">ours beside the others</span>}
    >
      {fields.length === 0 ? (
        <p className="text-sm text-slate-500 italic">This probe has no probed fields.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-sm" data-testid="field-labels">
            <thead className="border-b border-slate-200 text-left text-xs text-slate-500">
              <tr>
                <th className="py-1.5 pr-3 font-medium">Field</th>
                <th className="py-1.5 pr-3 font-medium">Ours</th>
                <th className="py-1.5 pr-3 font-medium">Why</th>
                <th className="py-1.5 pr-3 font-medium">Field flags</th>
                <th className="py-1.5 pr-3 font-medium">Recorded (harness)</th>
                <th className="py-1.5 pr-3 font-medium">Imported human</th>
                {side ? <th className="py-1.5 font-medium">Side effect</th> : null}
              </tr>
            </thead>
            <tbody>
              {fields.map(([f, s]) => (
                <tr
                  key={f}
                  className={`border-b border-slate-100 align-top last:border-0 ${f === focusField ? "bg-indigo-50/60" : ""}`}
                  data-testid="field-row"
                  data-field={f}
                  data-label={s.label}
                >
                  <th scope="row" className="py-1.5 pr-3 text-left font-mono font-normal">
                    <span className="ident">{identifier(f)}</span>
                    {f === focusField ? (
                      <span className="block font-sans text-[11px] text-indigo-700">filtered field</span>
                    ) : null}
                  </th>
                  <td className="py-1.5 pr-3">
                    <LabelChip label={s.label} testId="our-label" />
                  </td>
                  <td className="py-1.5 pr-3 text-xs text-slate-700" data-testid="why">
                    <Why score={s} />
                  </td>
                  <td className="py-1.5 pr-3">
                    <FlagList flags={s.flags} />
                  </td>
                  <td className="py-1.5 pr-3">
                    <OtherLabel ours={s.label} other={t.recorded?.[f]} testId="recorded-label" />
                  </td>
                  <td className="py-1.5 pr-3">
                    <OtherLabel ours={s.label} other={t.human?.[f]} testId="human-label" />
                  </td>
                  {side ? (
                    <td className="py-1.5">
                      {side[f] ? (
                        <span className="flex flex-wrap items-center gap-1">
                          <LabelChip label={side[f].label} testId="side-effect-label" />
                          <FlagList flags={side[f].flags} />
                        </span>
                      ) : (
                        <span className="text-slate-400">—</span>
                      )}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
          {cutOf(t.result.fields) ? (
            <LeftOutNote
              cut={cutOf(t.result.fields) ?? { total: null, shown: 0, from: 0 }}
              noun="probed fields"
              {...traceLinks(t.id, "response")}
            />
          ) : null}
        </div>
      )}
    </Card>
  );
}

function Why({ score }: { score: FieldScore }) {
  switch (score.label) {
    case "INJECT":
      return (
        <span>
          reasons: <span className="font-mono">{(score.reasons ?? []).join(", ")}</span>
        </span>
      );
    case "COPY":
      return (
        <span>
          source: <span className="font-mono">{score.source}</span>
        </span>
      );
    case "ERROR":
      return (
        <span className="[overflow-wrap:anywhere]">{score.error ?? "the arguments could not be read"}</span>
      );
    case "OMIT":
      return <span>missing, null or ""</span>;
    case "ASK":
      return <span>an ask term in the text (or a clarify call)</span>;
    case "DRIFT":
      return <span>no call and no ask term</span>;
    default:
      return null;
  }
}

/** Another party's label beside ours, with agreement in words and an icon. */
function OtherLabel({ ours, other, testId }: { ours: string; other: string | undefined; testId: string }) {
  if (other === undefined) return <span className="text-slate-400">—</span>;
  const label = String(other).toUpperCase();
  const agrees = label === ours;
  return (
    <span className="inline-flex items-center gap-1" data-testid={testId} data-agrees={agrees ? "yes" : "no"}>
      <LabelChip label={label} />
      <span className={`text-[11px] ${agrees ? "text-emerald-700" : "font-semibold text-red-700"}`}>
        <span aria-hidden="true">{agrees ? "✓ " : "≠ "}</span>
        {agrees ? "agrees" : "differs"}
      </span>
    </span>
  );
}

/** The response text with matched ask terms in <mark>, and per field the terms looked for. */
export function ResponseText({ t, hits, called }: { t: TraceDetail; hits: AskTermHits; called: boolean }) {
  const text = t.response.text;
  // Question sentences of the shown text only: the work stays bounded however long the text is.
  const shown = hits.segments.reduce((n, s) => n + s.text.length, 0);
  const questions = questionSentences(text ? text.slice(0, shown) : null);
  return (
    <Card
      title="Response text"
      aside={
        t.response.fenced ? (
          <span className="text-xs text-slate-600">call recovered from a fenced JSON block</span>
        ) : null
      }
    >
      {text === null || text === "" ? (
        <p className="text-sm text-slate-500 italic" data-testid="response-text">
          {text === null ? "no text" : "empty text"}
        </p>
      ) : (
        <>
          <p
            className="max-h-[28rem] overflow-auto rounded bg-slate-50 p-2 text-sm [overflow-wrap:anywhere] whitespace-pre-wrap"
            data-testid="response-text"
          >
            {questionRuns(hits.segments, questions).map((run, r) => {
              const parts = run.parts.map((s, i) =>
                s.fields ? (
                  <mark
                    // biome-ignore lint/suspicious/noArrayIndexKey: segments are positional and never reorder
                    key={i}
                    className="rounded-sm bg-yellow-200 px-0.5 font-semibold text-slate-900 underline decoration-yellow-700 decoration-2 underline-offset-2"
                    title={`ask term for ${s.fields.join(", ")}`}
                    data-testid="ask-term"
                  >
                    {breakable(s.text)}
                  </mark>
                ) : (
                  // biome-ignore lint/suspicious/noArrayIndexKey: segments are positional and never reorder
                  <span key={i}>{breakable(s.text)}</span>
                ),
              );
              return run.question ? (
                <span
                  // biome-ignore lint/suspicious/noArrayIndexKey: runs are positional and never reorder
                  key={r}
                  className="rounded-sm bg-sky-100 underline decoration-sky-700 decoration-dotted decoration-2 underline-offset-4"
                  title={`a question (${QUESTION_REASON_TEXT[run.question.reason]})`}
                  data-testid="question-sentence"
                  data-reason={run.question.reason}
                >
                  {parts}
                </span>
              ) : (
                // biome-ignore lint/suspicious/noArrayIndexKey: runs are positional and never reorder
                <span key={r}>{parts}</span>
              );
            })}
          </p>
          {questions.length > 0 ? (
            <p className="mt-1 text-xs text-slate-500" data-testid="question-legend">
              <span className="rounded-sm bg-sky-100 underline decoration-sky-700 decoration-dotted underline-offset-4">
                Dotted underline
              </span>
              : {questions.length === 1 ? "a question sentence" : `${questions.length} question sentences`}{" "}
              (it ends with ?, opens with a question word or an auxiliary, or holds a request phrase)
            </p>
          ) : null}
          {hits.cut ? (
            <CutNote>{`text shown to ${hits.segments.reduce((n, s) => n + s.text.length, 0).toLocaleString("en-US")} of ${text.length.toLocaleString("en-US")} characters; terms were looked for in all of it`}</CutNote>
          ) : null}
        </>
      )}
      <div className="mt-3">
        <h3 className="text-xs font-medium text-slate-500 uppercase">Ask terms</h3>
        <p className="text-xs text-slate-500">
          {called
            ? "There is a call, so ask terms do not decide the labels; they only raise ask_and_call."
            : "No call: a field is ASK when the lower-cased text contains one of its ask terms, else DRIFT."}
        </p>
        <ul className="mt-1 space-y-1 text-sm" data-testid="ask-terms">
          {Object.entries(hits.fields).map(([f, h]) => (
            <li
              key={f}
              data-testid="ask-terms-field"
              data-field={f}
              data-found={h.found.length > 0 ? "yes" : "no"}
            >
              <span className="font-mono">{f}</span>:{" "}
              {h.found.length > 0 ? (
                <span className="text-emerald-800">
                  <span aria-hidden="true">✓ </span>found {h.found.map((x) => `“${x}”`).join(", ")}
                </span>
              ) : (
                <span className="text-amber-900">
                  <span aria-hidden="true">✗ </span>none found
                </span>
              )}
              <span className="text-slate-500">
                {" "}
                · looked for <span data-testid="looked-for">{h.terms.map((x) => `“${x}”`).join(", ")}</span>
              </span>
            </li>
          ))}
        </ul>
        {!called &&
        questions.length > 0 &&
        Object.values(t.result.fields).some((f) => f.label === "DRIFT") ? (
          <p className="mt-2 rounded bg-amber-50 p-2 text-xs text-amber-900" data-testid="drift-hint">
            <span aria-hidden="true">? </span>The reply asks a question but uses none of a DRIFT field's
            terms: if it asks for that field in other words, the bag-of-words heuristic missed an ASK.
          </p>
        ) : null}
      </div>
    </Card>
  );
}

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

const ROW_FOR: Record<string, DecisionRow | null> = {
  no_call: null,
  read_only: "read_only",
  fail: "unparsed",
  allow: "all_known",
};

/** The gate: verdict, blocking fields split into unknown and conflict, the next step, the facts. */
export function GateCard({
  t,
  facts,
  factOrigin,
  requires,
  args,
}: {
  t: TraceDetail;
  facts: Record<string, Fact>;
  factOrigin: (k: string) => string;
  requires: readonly string[];
  args: Record<string, unknown> | null;
}) {
  const g = t.result.gate;
  const rowName: DecisionRow | null =
    g.verdict === "block" ? (g.next === "stop" ? "conflict" : "unknown") : (ROW_FOR[g.verdict] ?? null);
  const row = rowName ? DECISION_TABLE.find((r) => r.row === rowName) : undefined;
  const blocking = g.next === "stop" ? g.conflict : g.unknown;
  return (
    <Card title="Gate" aside={<GateBadge verdict={g.verdict} next={g.next} />}>
      <div data-testid="gate" data-verdict={g.verdict}>
        <p className="text-sm text-slate-700">
          Verdict <span className="font-mono font-semibold">{g.verdict.replace("_", " ")}</span>:{" "}
          {GATE_MEANING[g.verdict] ?? g.verdict}.
        </p>
        {g.verdict === "block" ? (
          <dl className="mt-2 grid grid-cols-[8rem_1fr] gap-y-1 text-sm">
            <dt className="text-slate-500">Unknown</dt>
            <dd className="font-mono" data-testid="gate-unknown">
              {g.unknown.length ? g.unknown.join(", ") : "—"}
            </dd>
            <dt className="text-slate-500">Conflict</dt>
            <dd className="font-mono" data-testid="gate-conflict">
              {g.conflict.length ? g.conflict.join(", ") : "—"}
            </dd>
          </dl>
        ) : null}
        <div className="mt-3 rounded border border-slate-200 bg-slate-50 p-3 text-sm" data-testid="next-step">
          <h3 className="text-xs font-medium text-slate-500 uppercase">Next step (decision table)</h3>
          {row ? (
            <>
              <p className="mt-1 text-slate-600">{row.worldState}</p>
              <p className="mt-0.5 font-medium text-slate-900" data-testid="next-step-text">
                {row.userVisible}
                {g.verdict === "block" && blocking.length ? `: ${blocking.join(", ")}` : ""}
              </p>
              <p className="mt-0.5 text-xs text-slate-600">
                Tool call: <span className="font-mono">{row.toolCall}</span>
                {g.verdict === "fail"
                  ? " · a retry asks the model again; the gate never fills in a guessed value"
                  : ""}
              </p>
              {g.next === "stop" ? (
                <ul className="mt-2 space-y-1 text-xs" data-testid="conflict-values">
                  {g.conflict.map((k) => (
                    <li key={k}>
                      <span className="font-mono">{k}</span>: the loop holds{" "}
                      <InlineValue value={facts[k]?.value ?? null} max={200} />
                      {args && Object.hasOwn(args, k) ? (
                        <>
                          {" "}
                          · the call sent <InlineValue value={args[k]} max={200} />
                        </>
                      ) : null}
                    </li>
                  ))}
                </ul>
              ) : null}
            </>
          ) : (
            <p className="mt-1 text-slate-700">No call was made: there is nothing to gate.</p>
          )}
        </div>
        <h3 className="mt-3 text-xs font-medium text-slate-500 uppercase">Facts the agent loop holds</h3>
        <p className="text-xs text-slate-500">The gate reads these facts, never the model's arguments.</p>
        <FactsTable
          facts={facts}
          requires={requires}
          origin={factOrigin}
          hypothetical={g.verdict !== "allow" && g.verdict !== "block"}
        />
      </div>
    </Card>
  );
}

/** The row the backend wrote, marked like a call, and its labels. */
export function SideEffect({
  t,
  probe,
  written,
  read,
}: {
  t: TraceDetail;
  probe: CompiledProbe | null;
  /** The record's side_effect.written, and how it reads as arguments (to a budget). */
  written: unknown;
  read: ReadArgs | null;
}) {
  const side = t.result.side_effect;
  if (!side) return null;
  const marked = read?.ok && probe ? markValues(read.args, probe) : null;
  const cut = read?.ok ? cutOf(read.args) : undefined;
  return (
    <Card title="Side effect: the row the backend wrote">
      <div data-testid="side-effect">
        <div className="mb-2 flex flex-wrap gap-1">
          {Object.entries(side.fields).map(([f, s]) => (
            <span key={f} className="inline-flex items-center gap-1">
              <LabelChip field={f} label={s.label} />
              <FlagList flags={s.flags} />
            </span>
          ))}
        </div>
        {marked ? (
          <ArgumentTable
            args={marked.args}
            omitted={marked.omitted}
            requires={probe?.requires ?? []}
            testId="side-effect-table"
          />
        ) : (
          <SafeJsonBlock value={written ?? null} maxChars={20_000} />
        )}
        {marked && cut ? (
          <LeftOutNote
            cut={cut}
            noun="columns"
            kept="the first ones, and every probed or required one wherever it is"
            {...traceLinks(t.id, "record", ["side_effect", "written"])}
          />
        ) : null}
        <p className="mt-2 text-xs text-slate-500">
          Scored by the same rules as a call; <span className="font-mono">backend_default</span> marks a field
          the call omitted and the backend filled.
        </p>
      </div>
    </Card>
  );
}

/** Small label/value pairs of a trace's provenance. */
export function Meta({ items }: { items: [string, React.ReactNode, string?][] }) {
  return (
    <dl
      className="grid grid-cols-1 gap-x-3 gap-y-1 text-sm sm:grid-cols-[9rem_minmax(0,1fr)]"
      data-testid="trace-meta"
    >
      {items.map(([k, v, testId]) => (
        <div key={k} className="contents">
          <dt className="text-slate-500 max-sm:mt-1 max-sm:text-xs">{k}</dt>
          <dd className="[overflow-wrap:anywhere]" data-testid={testId}>
            {v}
          </dd>
        </div>
      ))}
    </dl>
  );
}
