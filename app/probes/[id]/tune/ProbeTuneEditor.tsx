"use client";

import Link from "next/link";
import { type ReactNode, useMemo } from "react";
import type { ReviewerState } from "@/app/_review/useReviewer";
import { DraftEditor, useDraftOf } from "@/app/_tuning/DraftEditor";
import { TermChips } from "@/app/_tuning/TermChips";
import {
  describeConfigurationChange,
  diffConfiguration,
  normalizeConfiguration,
  type ProbeConfiguration,
} from "@/lib/fixtures/configuration";
import { termTextProblem } from "@/lib/lexicon/limits";
import { takeIntoTerms } from "@/lib/tuning/draftChange";
import type { TuneField } from "@/lib/tuning/tuneFields";
import type { TermChange } from "@/lib/tuning/types";

/** The draft's parts: each probed field's own terms, the bait values, the clarify tool as typed. */
interface Draft {
  terms: Record<string, string[]>;
  bait: string[];
  clarify: string;
}

/**
 * A probe's scoring configuration as a draft: ask terms per probed field (the lexicon's shown
 * beside them), bait values, the clarify tool, with the live what-if and save as a new version
 * (which stays current whatever later records bring). What the page shows below it (`children`:
 * its suggestions) takes suggestions into this draft, the name fallback kept.
 */
export function ProbeTuneEditor({
  probe,
  version,
  saved,
  fields,
  toolNames,
  reviewer,
  children,
}: {
  probe: string;
  version: number;
  saved: ProbeConfiguration;
  fields: TuneField[];
  toolNames: string[];
  reviewer: ReviewerState;
  children?: ReactNode;
}) {
  const { draft, setDraft, reset } = useDraftOf<Draft>(version, () => ({
    terms: Object.fromEntries(fields.map((f) => [f.field, [...f.declared]])),
    bait: [...saved.bait],
    clarify: saved.clarify_tool ?? "",
  }));
  const { terms, bait, clarify } = draft;
  const configuration = useMemo((): ProbeConfiguration => {
    const ask_terms: Record<string, string[]> = { ...saved.ask_terms };
    for (const f of fields) {
      if (terms[f.field].length > 0) ask_terms[f.field] = terms[f.field];
      else delete ask_terms[f.field];
    }
    return normalizeConfiguration({ ask_terms, bait, clarify_tool: clarify.trim() || null });
  }, [saved, fields, terms, bait, clarify]);
  const changeText = describeConfigurationChange(diffConfiguration(saved, configuration));
  const dirty = changeText !== "no change";
  const set = (part: Partial<Draft>) => setDraft((d) => ({ ...d, ...part }));

  const setFieldTerms = (f: TuneField, next: string[]) =>
    setDraft((d) => {
      // Adding to a field that lists none starts from its name, so the name keeps counting.
      const base = d.terms[f.field].length === 0 && next.length > 0 ? [...f.fallback, ...next] : next;
      return { ...d, terms: { ...d.terms, [f.field]: [...new Set(base)] } };
    });
  const take = (taken: TermChange[]) =>
    setDraft((d) => {
      const next = { ...d.terms };
      for (const c of taken)
        if (Object.hasOwn(next, c.field)) next[c.field] = takeIntoTerms(next[c.field], c.field, c);
      return { ...d, terms: next };
    });

  return (
    <DraftEditor
      testId="probe-draft"
      version={version}
      draft={{ kind: "probe", probe, configuration }}
      dirty={dirty}
      changes={changeText}
      onReset={reset}
      onTake={take}
      savedText={(v) =>
        `Saved ${probe} version ${v}: it stays current whatever later records bring. Runs scored before it keep their labels until they are re-scored (below).`
      }
      reviewer={reviewer}
      below={children}
    >
      <h3 className="text-xs font-medium text-slate-500 uppercase">Ask terms per probed field</h3>
      <p className="text-xs text-slate-600">
        The probe's own terms match as substrings of the lower-cased reply. The shared lexicon's (grey) count
        too, as whole words; change them on the{" "}
        <Link href="/lexicon" className="text-indigo-700 underline">
          lexicon page
        </Link>
        .
      </p>
      {fields.length === 0 ? (
        <p className="text-sm text-slate-500 italic">This probe probes no field.</p>
      ) : null}
      <ul className="space-y-3">
        {fields.map((f) => {
          const own = terms[f.field];
          return (
            <li
              key={f.field}
              className="rounded border border-slate-200 p-3"
              data-testid="tune-field"
              data-field={f.field}
            >
              <div className="mb-1 flex flex-wrap items-baseline justify-between gap-2">
                <span className="font-mono text-sm font-semibold [overflow-wrap:anywhere]">{f.field}</span>
                {f.rule === "question" ? (
                  <span className="text-xs text-slate-500">lexicon rule: only inside a question</span>
                ) : null}
              </div>
              <TermChips
                terms={own}
                onChange={(next) => setFieldTerms(f, next)}
                label={`${f.field} ask terms`}
                placeholder="an ask term, e.g. which zone"
                normalize={(t) => t.trim().toLowerCase()}
                problem={(t) => termTextProblem(t)}
                testId="field-terms"
                readOnly={[
                  ...(own.length === 0
                    ? f.fallback.map((t) => ({
                        term: t,
                        title: "the field's name: counts while the probe lists no terms",
                      }))
                    : []),
                  ...f.lexicon.map((t) => ({ term: t, title: "from the shared lexicon (whole words)" })),
                  ...f.any.map((t) => ({
                    term: t,
                    mark: "*",
                    title: `from the lexicon's * entry: counts for every field${f.anyRule === "question" ? ", only inside a question" : ""}`,
                  })),
                ]}
              />
              {own.length === 0 ? (
                <p className="mt-1 text-xs text-slate-500">
                  No terms of its own: its name counts (adding a term keeps it).
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
      <h3 className="text-xs font-medium text-slate-500 uppercase">Bait</h3>
      <p className="text-xs text-slate-600">
        Values a model falls back on (an INJECT of one says <span className="font-mono">bait</span>; a visible
        one is COPY flagged copied_bait). Compared ignoring case.
      </p>
      <TermChips
        terms={bait}
        onChange={(next) => set({ bait: next })}
        label="Bait values"
        placeholder="a value, e.g. UTC"
        problem={(t) =>
          bait.some((b) => b.toLowerCase() === t.toLowerCase()) ? `"${t}" is bait already` : null
        }
        testId="bait"
      />
      <h3 className="text-xs font-medium text-slate-500 uppercase">Clarify tool</h3>
      <label className="flex flex-col text-xs text-slate-600">
        A call to it is an ASK for the fields it names (all when it names none)
        <input
          value={clarify}
          onChange={(e) => set({ clarify: e.target.value })}
          list="tune-tool-names"
          placeholder="none"
          maxLength={200}
          className="mt-1 rounded border border-slate-300 px-2 py-1 font-mono text-sm text-slate-900"
          data-testid="clarify-tool"
        />
      </label>
      <datalist id="tune-tool-names">
        {toolNames.map((t) => (
          <option key={t} value={t} />
        ))}
      </datalist>
    </DraftEditor>
  );
}
