import type { SuggestionJson } from "@/lib/tuning/contract";
import type { SourceSentence } from "@/lib/tuning/suggest";

const n = (x: number) => x.toLocaleString("en-US");

/** A source sentence with its term marked. */
function Marked({ s }: { s: SourceSentence }) {
  if (!s.mark) return <>{s.sentence}</>;
  const [a, b] = s.mark;
  return (
    <>
      {s.sentence.slice(0, a)}
      <mark className="rounded bg-amber-200 px-0.5 text-slate-900" data-testid="source-term">
        {s.sentence.slice(a, b)}
      </mark>
      {s.sentence.slice(b)}
    </>
  );
}

function ChangeText({ s }: { s: SuggestionJson }) {
  const c = s.change;
  const verb = c.kind === "add" ? "add" : c.kind === "remove" ? "remove" : "rule";
  const tone =
    c.kind === "add"
      ? "bg-emerald-100 text-emerald-900"
      : c.kind === "remove"
        ? "bg-rose-100 text-rose-900"
        : "bg-sky-100 text-sky-900";
  return (
    <span className="flex min-w-0 flex-wrap items-baseline gap-x-2 gap-y-1">
      <span className={`rounded px-1.5 py-0.5 text-xs font-semibold uppercase ${tone}`}>{verb}</span>
      <span className="font-mono text-sm [overflow-wrap:anywhere]" data-testid="suggestion-field">
        {c.field}
        {c.field === "*" ? (
          <span className="ml-1 rounded bg-violet-100 px-1 font-sans text-xs text-violet-900">
            every field
          </span>
        ) : null}
      </span>
      <span
        className="font-mono text-sm font-semibold [overflow-wrap:anywhere]"
        data-testid="suggestion-term"
      >
        {c.kind === "rule"
          ? c.rule === "question"
            ? "only inside a question"
            : "anywhere in the reply"
          : `“${c.term}”`}
      </span>
    </span>
  );
}

/** One suggestion: the change, what it fixes and breaks in scope, its what-if, where it came from. */
export function SuggestionItem({
  s,
  taken,
  onTake,
  ticked,
  onTick,
}: {
  s: SuggestionJson;
  taken: boolean;
  onTake: () => void;
  /** Whether "Take all" takes it although it moves reviewed fields (only asked for those). */
  ticked: boolean;
  onTick: (on: boolean) => void;
}) {
  const w = s.what_if;
  return (
    <li
      className="rounded border border-slate-200 p-3"
      data-testid="suggestion"
      data-rank={s.rank}
      data-kind={s.change.kind}
      data-fixes={s.fixes}
      data-breaks={s.breaks}
      data-reviewed={s.reviewed.length}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="flex min-w-0 items-baseline gap-2">
          <span className="w-6 shrink-0 text-right font-mono text-xs text-slate-500">{s.rank}.</span>
          <ChangeText s={s} />
        </div>
        <button
          type="button"
          onClick={onTake}
          disabled={taken}
          className="shrink-0 rounded border border-indigo-300 bg-indigo-50 px-2 py-1 text-xs font-medium text-indigo-900 hover:bg-indigo-100 disabled:border-slate-200 disabled:bg-slate-50 disabled:text-slate-500"
          data-testid="take-suggestion"
        >
          {taken ? "in the draft ✓" : "Take into the draft"}
        </button>
      </div>
      <p className="mt-1 pl-8 text-sm text-slate-700" data-testid="suggestion-counts">
        fixes <span className="font-semibold text-emerald-800">{n(s.fixes)}</span> · breaks{" "}
        <span className={`font-semibold ${s.breaks > 0 ? "text-red-800" : "text-slate-700"}`}>
          {n(s.breaks)}
        </span>{" "}
        <span className="text-xs text-slate-500">
          of the labelled fields in scope; fixes from {n(s.traces)} trace{s.traces === 1 ? "" : "s"}
        </span>
      </p>
      {s.reviewed.length > 0 ? (
        <div className="mt-1 pl-8 text-sm text-red-900" data-testid="suggestion-reviewed">
          <p>
            <span aria-hidden="true">✗ </span>moves {n(s.reviewed.length)} reviewed field
            {s.reviewed.length === 1 ? "" : "s"} away from the review
          </p>
          {taken ? null : (
            <label className="mt-1 inline-flex min-h-6 items-center gap-2 text-xs text-slate-700">
              <input
                type="checkbox"
                checked={ticked}
                onChange={(e) => onTick(e.target.checked)}
                className="size-4"
                data-testid="tick-reviewed"
              />
              include it in “Take all” anyway
            </label>
          )}
        </div>
      ) : null}
      {w ? (
        <p className="mt-1 pl-8 text-xs text-slate-600" data-testid="suggestion-what-if">
          what-if with the ones above: fixtures {n(w.fixtures.fixed)} fixed,{" "}
          <span className={w.fixtures.broken > 0 ? "font-semibold text-red-800" : ""}>
            {n(w.fixtures.broken)} broken
          </span>
          {w.fixtures.seedBroken > 0 ? (
            <span className="font-semibold text-red-800"> ({n(w.fixtures.seedBroken)} in the seed set)</span>
          ) : null}{" "}
          · stored labels {n(w.traces.moved)} move ({n(w.traces.agrees)} to a human label,{" "}
          {n(w.traces.disagrees)} away from one)
        </p>
      ) : null}
      {s.sources.length > 0 ? (
        <ul className="mt-2 space-y-1 pl-8" aria-label="Where it came from">
          {s.sources.map((src) => (
            <li
              key={src.key}
              className="text-sm text-slate-800 [overflow-wrap:anywhere]"
              data-testid="suggestion-source"
            >
              <span aria-hidden className="text-slate-400">
                “
              </span>
              <Marked s={src} />
              <span aria-hidden className="text-slate-400">
                ”
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}
