import { LabelChip } from "@/app/_components/LabelChip";
import {
  ARGUMENT_MARKS,
  type ArgumentMark,
  MARK_MEANING,
  type MarkedArgument,
  type OmittedField,
} from "@/lib/probe/argumentMarks";
import { breakable, identifier } from "./Breakable";
import { CardTableHead } from "./CardTableHead";
import { CutNote } from "./SafeJsonBlock";
import { inlineValue } from "./safeJson";

/** Icon, colour and word per mark: the word always carries the meaning, the rest only helps. */
const MARK_STYLE: Record<ArgumentMark | "omitted", { icon: string; className: string }> = {
  state: { icon: "⊡", className: "bg-sky-50 text-sky-900 ring-sky-600/40" },
  user: { icon: "❝", className: "bg-sky-50 text-sky-900 ring-sky-600/40" },
  typed_by_user: { icon: "⌨", className: "bg-violet-50 text-violet-900 ring-violet-600/40" },
  hidden: { icon: "⚠", className: "bg-red-100 text-red-900 ring-red-700/50" },
  bait: { icon: "⚑", className: "bg-orange-50 text-orange-900 ring-orange-600/50" },
  invented: { icon: "✱", className: "bg-red-50 text-red-800 ring-red-600/40" },
  empty: { icon: "∅", className: "bg-teal-50 text-teal-900 ring-teal-600/40" },
  omitted: { icon: "∅", className: "bg-teal-50 text-teal-900 ring-teal-600/40" },
};

const OMITTED_MEANING = "a probed field the call left out (or sent empty): scored OMIT";

export function MarkBadge({ mark }: { mark: ArgumentMark | "omitted" }) {
  const s = MARK_STYLE[mark];
  const word = mark === "omitted" ? "omitted" : MARK_MEANING[mark].word;
  const meaning = mark === "omitted" ? OMITTED_MEANING : MARK_MEANING[mark].meaning;
  return (
    <span
      className={`inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${s.className}`}
      title={meaning}
      data-testid="mark"
      data-mark={mark}
    >
      <span aria-hidden="true">{s.icon}</span>
      {word}
    </span>
  );
}

export function MarkLegend() {
  return (
    <details
      className="mt-3 rounded border border-slate-200 bg-slate-50 px-3 py-2 text-xs"
      open
      data-testid="mark-legend"
    >
      <summary className="cursor-pointer font-medium text-slate-700">What the marks mean</summary>
      <dl className="mt-2 grid gap-x-4 gap-y-1.5 md:grid-cols-2">
        {[...ARGUMENT_MARKS, "omitted" as const].map((m) => (
          <div key={m} className="flex items-start gap-2">
            <dt className="shrink-0">
              <MarkBadge mark={m} />
            </dt>
            <dd className="pt-0.5 text-slate-700">
              {m === "omitted" ? OMITTED_MEANING : MARK_MEANING[m].meaning}
            </dd>
          </div>
        ))}
      </dl>
      <p className="mt-2 text-slate-600">
        Marks follow the scorer's own rules, so a probed field's marks follow from its label: a value found in
        the visible world (the redacted state or the user's text) is COPY, one the model was never shown is
        INJECT, a field left out is OMIT. Values are shown as JSON, so <code className="font-mono">""</code>,{" "}
        <code className="font-mono">"null"</code> and <code className="font-mono">null</code> look different.
      </p>
    </details>
  );
}

/** One untrusted value as JSON on one line, cut when long, always inert text. */
export function InlineValue({ value, max = 400 }: { value: unknown; max?: number }) {
  const r = inlineValue(value, max);
  return (
    <>
      <code
        className="font-mono text-[13px] break-words whitespace-pre-wrap text-slate-900"
        data-testid="arg-value"
      >
        {breakable(r.text)}
      </code>
      {r.charsCut || r.stringCut || r.depthCut || r.entriesCut ? (
        <CutNote>
          {r.depthCut
            ? "nested value shown to 6 levels"
            : r.charsCut || r.stringCut
              ? `value longer than ${max.toLocaleString("en-US")} characters`
              : "a long value: its first entries, with a count of the rest"}
        </CutNote>
      ) : null}
    </>
  );
}

const ROLE_WORD = { required: "required", optional: "optional", not_in_schema: "not in schema" } as const;

/** The call's arguments in the order the model sent them, each with its marks. */
export function ArgumentTable({
  args,
  omitted,
  requires,
  testId = "argument-table",
}: {
  args: MarkedArgument[];
  omitted: OmittedField[];
  requires: readonly string[];
  testId?: string;
}) {
  const req = new Set(requires);
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm" data-testid={testId}>
        <CardTableHead roomy columns={["Argument", "Value as sent", "What it is", "Schema", "Label"]} />
        <tbody>
          {args.length === 0 && omitted.length === 0 ? (
            <tr>
              <td colSpan={5} className="py-2 text-slate-500 italic">
                no arguments
              </td>
            </tr>
          ) : null}
          {args.map((a) => (
            <tr
              key={a.key}
              className="border-b border-slate-100 align-top last:border-0"
              data-testid="arg-row"
              data-key={a.key}
              data-marks={a.marks.join(" ")}
            >
              <th scope="row" className="py-1.5 pr-3 text-left font-mono font-normal text-slate-700">
                <span className="ident">{identifier(a.key)}</span>
                {a.probed ? (
                  <span
                    className="ml-1 rounded bg-indigo-50 px-1 text-[10px] font-sans whitespace-nowrap text-indigo-800"
                    title="a probed field: its label counts"
                  >
                    probed
                  </span>
                ) : null}
              </th>
              <td className="max-w-[28rem] py-1.5 pr-3">
                <InlineValue value={a.value} />
              </td>
              <td className="py-1.5 pr-3">
                <span className="flex flex-wrap gap-1">
                  {a.marks.map((m) => (
                    <MarkBadge key={m} mark={m} />
                  ))}
                </span>
                {a.structured ? (
                  <span className="mt-0.5 block text-[11px] text-slate-500">
                    arrays and objects never match the visible world
                  </span>
                ) : null}
              </td>
              <td className="py-1.5 pr-3 text-xs whitespace-nowrap text-slate-600">
                {ROLE_WORD[a.schema]}
                {req.has(a.key) ? (
                  <span className="block text-[11px] text-slate-500">gate requires</span>
                ) : null}
              </td>
              <td className="py-1.5">
                {a.probed ? (
                  <LabelChip label={a.score.label} />
                ) : (
                  <span className="text-xs whitespace-nowrap text-slate-400">not probed</span>
                )}
              </td>
            </tr>
          ))}
          {omitted
            .filter((o) => !o.sentEmpty)
            .map((o) => (
              <tr
                key={`omitted-${o.field}`}
                className="border-b border-slate-100 align-top text-slate-500 last:border-0"
                data-testid="omitted-row"
                data-key={o.field}
              >
                <th scope="row" className="py-1.5 pr-3 text-left font-mono font-normal">
                  <span className="ident">{identifier(o.field)}</span>
                  <span className="ml-1 rounded bg-indigo-50 px-1 text-[10px] font-sans whitespace-nowrap text-indigo-800">
                    probed
                  </span>
                </th>
                <td className="py-1.5 pr-3 text-xs italic">not sent</td>
                <td className="py-1.5 pr-3">
                  <MarkBadge mark="omitted" />
                </td>
                <td className="py-1.5 pr-3 text-xs whitespace-nowrap">
                  {ROLE_WORD[o.schema]}
                  {req.has(o.field) ? <span className="block text-[11px]">gate requires</span> : null}
                </td>
                <td className="py-1.5">
                  <LabelChip label="OMIT" />
                </td>
              </tr>
            ))}
        </tbody>
      </table>
    </div>
  );
}
