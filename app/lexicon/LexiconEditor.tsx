"use client";

import { type ReactNode, useMemo } from "react";
import type { ReviewerState } from "@/app/_review/useReviewer";
import { AddInput } from "@/app/_tuning/AddInput";
import { DraftEditor, useDraftOf } from "@/app/_tuning/DraftEditor";
import { TermChips } from "@/app/_tuning/TermChips";
import {
  ANY_FIELD_ENTRY,
  ASK_RULES,
  type AskRule,
  describeEntryChanges,
  diffEntries,
  type LexiconEntry,
  LexiconError,
  normalizeEntries,
} from "@/lib/lexicon/lexicon";
import { TERM_LIMITS } from "@/lib/lexicon/limits";
import { normalizeTerm, termProblem } from "@/lib/lexicon/terms";
import { takeIntoEntries } from "@/lib/tuning/draftChange";

type Entries = Record<string, LexiconEntry>;

const RULE_TEXT: Record<AskRule, string> = {
  anywhere: "anywhere in the reply",
  question: "only inside a question",
};

/** Entries as they would be saved, or why they cannot be (a term, a limit of lib/lexicon/limits.ts). */
function normalized(e: Entries): { entries: Entries; problem: null } | { entries: null; problem: string } {
  try {
    return { entries: normalizeEntries(e), problem: null };
  } catch (err) {
    if (err instanceof LexiconError) return { entries: null, problem: err.message };
    throw err;
  }
}

/**
 * The lexicon's draft: per field name its terms and ask rule, fields added and removed, with the
 * live what-if beside it, and save as a new version. What the page shows below it (`children`: its
 * suggestions) takes suggestions into this draft.
 */
export function LexiconEditor({
  version,
  saved,
  fieldNames,
  reviewer,
  children,
}: {
  version: number;
  saved: Entries;
  /** Field names probes probe, offered when adding an entry. */
  fieldNames: string[];
  reviewer: ReviewerState;
  children?: ReactNode;
}) {
  const { draft, setDraft, reset } = useDraftOf(version, () => structuredClone(saved));
  const checked = useMemo(() => normalized(draft), [draft]);
  const clean = checked.entries;
  const changes = useMemo(() => diffEntries(saved, clean ?? saved), [saved, clean]);
  const dirty = clean !== null && changes.length > 0;

  const setEntry = (field: string, e: LexiconEntry | null) =>
    setDraft((d) => {
      const next = { ...d };
      if (e === null) delete next[field];
      else next[field] = e;
      return next;
    });
  const addField = (typed: string): string | null => {
    const f = typed.trim();
    if (Object.hasOwn(draft, f)) return `"${f}" has an entry already`;
    setEntry(f, { terms: [], rule: "anywhere" });
    return null;
  };
  const fields = Object.keys(draft).sort();

  return (
    <DraftEditor
      testId="lexicon-draft"
      version={version}
      draft={{ kind: "lexicon", entries: clean ?? saved }}
      dirty={dirty}
      changes={describeEntryChanges(changes)}
      onReset={reset}
      onTake={(taken) => setDraft((d) => taken.reduce(takeIntoEntries, d))}
      savedText={(v) =>
        `Saved lexicon version ${v}. Runs scored before it keep their labels until they are re-scored (below).`
      }
      reviewer={reviewer}
      below={children}
    >
      <p className="text-xs text-slate-600">
        Terms count as asking for a field of that name in every probe, beside the probe's own. They match
        whole words (one or more; <span className="font-mono">locat*</span> is a prefix), ignoring case and
        accents; in Chinese, Japanese or Thai text anywhere. At most {TERM_LIMITS.termsPerField} terms a
        field, {TERM_LIMITS.termLength} characters a term, {TERM_LIMITS.fields} fields and{" "}
        {TERM_LIMITS.totalTerms.toLocaleString("en-US")} terms in all. The entry{" "}
        <span className="font-mono">*</span> holds terms for every probed field of every probe, with its own
        rule.
      </p>
      {fields.length === 0 ? (
        <p className="text-sm text-slate-500 italic" data-testid="lexicon-empty">
          The lexicon is empty: every probe scores with its own ask terms. Add a field below.
        </p>
      ) : null}
      <ul className="space-y-3">
        {fields.map((f) => {
          const e = draft[f];
          const every = f === ANY_FIELD_ENTRY;
          const any = !every && Object.hasOwn(draft, ANY_FIELD_ENTRY) ? draft[ANY_FIELD_ENTRY] : null;
          return (
            <li
              key={f}
              className="rounded border border-slate-200 p-3"
              data-testid="lexicon-entry"
              data-field={f}
            >
              <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
                <span className="font-mono text-sm font-semibold [overflow-wrap:anywhere]">
                  {f}
                  {every ? (
                    <span
                      className="ml-2 rounded bg-violet-100 px-1 font-sans text-xs font-normal text-violet-900"
                      data-testid="every-field"
                    >
                      every field of every probe
                    </span>
                  ) : null}
                </span>
                <div className="flex items-center gap-2">
                  <label className="text-xs text-slate-600">
                    counts{" "}
                    <select
                      value={e.rule}
                      onChange={(ev) => setEntry(f, { ...e, rule: ev.target.value as AskRule })}
                      className="rounded border border-slate-300 bg-white px-1 py-0.5 text-xs"
                      data-testid="rule"
                    >
                      {ASK_RULES.map((r) => (
                        <option key={r} value={r}>
                          {RULE_TEXT[r]}
                        </option>
                      ))}
                    </select>
                  </label>
                  <button
                    type="button"
                    onClick={() => setEntry(f, null)}
                    className="text-xs text-red-700 underline"
                    data-testid="remove-entry"
                  >
                    remove
                  </button>
                </div>
              </div>
              <TermChips
                terms={e.terms}
                onChange={(terms) => setEntry(f, { ...e, terms })}
                label={`${f} terms`}
                placeholder="a term, e.g. region or locat*"
                normalize={normalizeTerm}
                problem={(t) => {
                  const n = normalizeTerm(t);
                  return termProblem(n) ?? (e.terms.includes(n) ? `"${n}" is there already` : null);
                }}
                testId="entry-terms"
              />
              {e.rule === "question" && !every ? (
                <p className="mt-1 text-xs text-slate-500">
                  The probe's own terms for {f} count only inside a question too.
                </p>
              ) : null}
              {any && any.terms.length > 0 ? (
                <p className="mt-1 text-xs text-slate-600" data-testid="any-terms">
                  Also counts for {f}: <span className="font-mono">*</span>{" "}
                  {any.rule === "question" ? "(in questions) " : ""}
                  {any.terms.map((t) => `“${t}”`).join(", ")}
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
      <AddInput
        onAdd={addField}
        label="Add an entry for a field name"
        button="Add field"
        maxLength={200}
        offered={{ id: "lexicon-field-names", values: [ANY_FIELD_ENTRY, ...fieldNames] }}
        className="flex flex-wrap items-end gap-2 border-t border-slate-100 pt-3"
        inputTestId="new-field"
        buttonTestId="add-field"
      />
      {checked.problem !== null ? (
        <p
          role="alert"
          className="rounded bg-amber-50 p-2 text-sm text-amber-900"
          data-testid="draft-problem"
        >
          This draft cannot be saved: {checked.problem}.
        </p>
      ) : null}
    </DraftEditor>
  );
}
