"use client";

import { useState } from "react";
import type { LabelledRun, LabelledSet } from "@/db/queries/labelledScope";
import type { SuggestionsJson, TuningTarget } from "@/lib/tuning/contract";
import { describeChange } from "@/lib/tuning/types";
import { suggestAction } from "./actions";
import { useTakeIntoDraft } from "./DraftEditor";
import { SuggestionItem } from "./SuggestionItem";
import { SuggestScope } from "./SuggestScope";

const n = (x: number) => x.toLocaleString("en-US");
const TOPS = [5, 10, 20, 50];

/**
 * Suggestions learned from the human labels in a scope (every run and set, or the ones chosen):
 * additions that fix questions scored DRIFT, removals and the question rule where ours says ASK
 * and humans said DRIFT, each with what it fixes and breaks in scope, its what-if over everything
 * stored, and the sentences it came from. One click takes a suggestion into the page's draft: the
 * draft editor this panel is rendered below (DraftEditor.tsx).
 */
export function SuggestionsPanel({
  target,
  runs,
  sets,
}: {
  target: TuningTarget;
  runs: LabelledRun[];
  sets: LabelledSet[];
}) {
  const [chosen, setChosen] = useState<{ runs: string[]; sets: string[] }>({ runs: [], sets: [] });
  const [top, setTop] = useState(10);
  const [state, setState] = useState<"idle" | "computing" | "ready">("idle");
  const [error, setError] = useState("");
  const [result, setResult] = useState<SuggestionsJson | null>(null);
  const [taken, setTaken] = useState<Set<number>>(new Set());
  /** Suggestions that move reviewed fields, ticked to be taken by "Take all" anyway. */
  const [ticked, setTicked] = useState<Set<number>>(new Set());
  const [notice, setNotice] = useState("");
  const takeIntoDraft = useTakeIntoDraft();

  const find = async () => {
    setState("computing");
    setError("");
    setNotice("");
    setTaken(new Set());
    setTicked(new Set());
    try {
      const r = await suggestAction({
        probe: target.kind === "probe" ? target.probe : null,
        runs: chosen.runs,
        sets: chosen.sets,
        top,
      });
      if (r.ok) setResult(r.result);
      else setError(r.error);
    } catch (e) {
      setError(`the suggestions failed: ${(e as Error).message}`);
    }
    setState("ready");
  };

  const take = (ranks: number[]) => {
    if (!result) return;
    const picked = result.suggestions.filter((s) => ranks.includes(s.rank) && !taken.has(s.rank));
    if (picked.length === 0) return;
    if (!takeIntoDraft) {
      setNotice("There is no draft on this page to take it into.");
      return;
    }
    takeIntoDraft(picked.map((s) => s.change));
    setTaken(new Set([...taken, ...picked.map((s) => s.rank)]));
    setNotice(
      `In the draft: ${picked.map((s) => describeChange(s.change)).join("; ")}. Its what-if is beside the draft.`,
    );
  };

  return (
    <section
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
      data-testid="suggestions"
      data-state={state}
      aria-busy={state === "computing"}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-sm font-semibold tracking-wide text-slate-700 uppercase">
          Suggestions from human labels
        </h2>
        <span className="text-xs text-slate-500">
          {target.kind === "lexicon" ? "for the shared lexicon" : `for ${target.probe}'s own terms`}
        </span>
      </div>
      <p className="text-xs text-slate-600">
        Learned from fields whose human label (a review, an imported label, a fixture) says ASK where ours
        says DRIFT, and the reverse. Ranked by the misses a change fixes minus the fields with another human
        label it turns to ASK, each counted after the ones above it, only inside the scope chosen.
      </p>
      <SuggestScope runs={runs} sets={sets} chosen={chosen} onChange={setChosen} />
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          onClick={find}
          disabled={state === "computing" || runs.length + sets.length === 0}
          className="rounded bg-indigo-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-800 disabled:bg-slate-300"
          data-testid="find-suggestions"
        >
          {state === "computing" ? "Finding suggestions…" : result ? "Find again" : "Find suggestions"}
        </button>
        <label className="text-xs text-slate-600">
          list{" "}
          <select
            value={top}
            onChange={(e) => setTop(Number(e.target.value))}
            className="rounded border border-slate-300 bg-white px-1 py-0.5 text-xs"
            data-testid="suggest-top"
          >
            {TOPS.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        {result && result.suggestions.length > 1
          ? (() => {
              // "Take all" takes only what moves no reviewed field, unless the reviewer ticked it.
              const all = result.suggestions.filter((s) => s.reviewed.length === 0 || ticked.has(s.rank));
              const left = result.suggestions.length - all.length;
              return (
                <button
                  type="button"
                  onClick={() => take(all.map((s) => s.rank))}
                  disabled={all.every((s) => taken.has(s.rank))}
                  className="min-h-6 rounded border border-slate-300 bg-white px-2 py-1 text-xs hover:bg-slate-50 disabled:text-slate-400"
                  data-testid="take-all"
                  data-count={all.length}
                >
                  Take all {all.length} into the draft
                  {left > 0 ? ` (not the ${left} that move reviewed fields)` : ""}
                </button>
              );
            })()
          : null}
      </div>
      {error ? (
        <p role="alert" className="rounded bg-red-50 p-2 text-sm text-red-800" data-testid="suggest-error">
          {error}
        </p>
      ) : null}
      {notice ? (
        <p
          role="status"
          className="rounded bg-indigo-50 p-2 text-sm text-indigo-900"
          data-testid="suggest-notice"
        >
          {notice}{" "}
          {taken.size > 0 ? (
            <button
              type="button"
              onClick={() => window.scrollTo({ top: 0, behavior: "smooth" })}
              className="font-medium text-indigo-800 underline"
            >
              Go to the draft ↑
            </button>
          ) : null}
        </p>
      ) : null}
      {result ? (
        <div className="space-y-2">
          <p className="text-sm text-slate-700" data-testid="suggest-counted">
            {n(result.counted.fields)} human-labelled fields in scope: {n(result.counted.missedAsks)}{" "}
            questions scored DRIFT, {n(result.counted.wrongAsks)} DRIFTs scored ASK
            {result.counted.missing > 0
              ? `; ${n(result.counted.missing)} left out (their probe version is gone)`
              : ""}
            . A suggestion needs {n(result.needs.fixes)} fixes from {n(result.needs.traces)} different traces.{" "}
            <span className="text-xs text-slate-500">
              ranked in {n(result.ms.read + result.ms.rank)} ms, what-ifs {n(result.ms.whatIf)} ms
            </span>
          </p>
          {result.suggestions.length === 0 ? (
            <p className="text-sm text-slate-500 italic" data-testid="suggest-none">
              No change fixes more of them than it breaks.
            </p>
          ) : (
            <ol className="space-y-2" data-testid="suggestion-list">
              {result.suggestions.map((s) => (
                <SuggestionItem
                  key={s.rank}
                  s={s}
                  taken={taken.has(s.rank)}
                  onTake={() => take([s.rank])}
                  ticked={ticked.has(s.rank)}
                  onTick={(on) => {
                    const next = new Set(ticked);
                    if (on) next.add(s.rank);
                    else next.delete(s.rank);
                    setTicked(next);
                  }}
                />
              ))}
            </ol>
          )}
        </div>
      ) : null}
    </section>
  );
}
