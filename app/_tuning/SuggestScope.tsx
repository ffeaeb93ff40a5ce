"use client";

import type { LabelledRun, LabelledSet } from "@/db/queries/labelledScope";

const n = (x: number) => x.toLocaleString("en-US");

/** The scope's words: every run and set, or the ones chosen. */
function scopeWords(runs: readonly string[], sets: readonly string[]): string {
  return runs.length + sets.length === 0
    ? "every run and fixture set"
    : [...runs.map((r) => `run ${r}`), ...sets.map((s) => `set ${s}`)].join(", ");
}

/** What the suggestions learn from: every run and set with human labels, or the ones ticked here. */
export function SuggestScope({
  runs,
  sets,
  chosen,
  onChange,
}: {
  runs: LabelledRun[];
  sets: LabelledSet[];
  chosen: { runs: string[]; sets: string[] };
  onChange: (chosen: { runs: string[]; sets: string[] }) => void;
}) {
  const toggle = (list: string[], name: string) =>
    list.includes(name) ? list.filter((x) => x !== name) : [...list, name];
  return (
    <fieldset className="space-y-2" data-testid="suggest-scope">
      <legend className="text-xs font-medium text-slate-700">
        Learn from: <span data-testid="suggest-scope-words">{scopeWords(chosen.runs, chosen.sets)}</span>
      </legend>
      {runs.length + sets.length === 0 ? (
        <p className="text-sm text-slate-500 italic" data-testid="suggest-nothing">
          No human labels yet: review fields on a run or trace page, or add fixtures, then come back.
        </p>
      ) : (
        <details className="rounded border border-slate-200 p-2 text-sm">
          <summary className="cursor-pointer text-xs text-slate-700">
            Choose runs and sets ({n(runs.length)} runs with human labels, {n(sets.length)} sets)
          </summary>
          <div className="mt-2 grid gap-3 sm:grid-cols-2">
            <Choices
              kind="run"
              items={runs.map((r) => ({ name: r.name, shown: r.name, count: `${n(r.labelled)} labelled` }))}
              chosen={chosen.runs}
              onToggle={(name) => onChange({ ...chosen, runs: toggle(chosen.runs, name) })}
            />
            <Choices
              kind="set"
              items={sets.map((s) => ({
                name: s.name,
                shown: `set ${s.name}`,
                count: `${n(s.fixtures)} fixtures`,
              }))}
              chosen={chosen.sets}
              onToggle={(name) => onChange({ ...chosen, sets: toggle(chosen.sets, name) })}
            />
          </div>
        </details>
      )}
    </fieldset>
  );
}

function Choices({
  kind,
  items,
  chosen,
  onToggle,
}: {
  kind: "run" | "set";
  items: { name: string; shown: string; count: string }[];
  chosen: string[];
  onToggle: (name: string) => void;
}) {
  return (
    <div className="max-h-48 space-y-1 overflow-y-auto">
      {items.map((it) => (
        <label key={it.name} className="flex min-h-6 items-center gap-2 text-xs">
          <input
            type="checkbox"
            checked={chosen.includes(it.name)}
            onChange={() => onToggle(it.name)}
            data-testid={`suggest-${kind}`}
            {...{ [`data-${kind}`]: it.name }}
          />
          <span className="font-mono [overflow-wrap:anywhere]">{it.shown}</span>
          <span className="shrink-0 text-slate-500">{it.count}</span>
        </label>
      ))}
    </div>
  );
}
