"use client";

import { useMemo, useState } from "react";
import type { ReviewerState } from "@/app/_review/useReviewer";
import { DraftChanges } from "@/app/_tuning/DraftChanges";
import { useDraftInbox } from "@/app/_tuning/draftInbox";
import { SaveDraft } from "@/app/_tuning/SaveDraft";
import { TermChips } from "@/app/_tuning/TermChips";
import { useWhatIf } from "@/app/_tuning/useWhatIf";
import { WhatIfPanel } from "@/app/_tuning/WhatIfPanel";
import {
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
 * live what-if beside it, and save as a new version.
 */
export function LexiconEditor({
  version,
  saved,
  fieldNames,
  reviewer,
}: {
  version: number;
  saved: Entries;
  /** Field names probes probe, offered when adding an entry. */
  fieldNames: string[];
  reviewer: ReviewerState;
}) {
  const [draft, setDraft] = useState<Entries>(() => structuredClone(saved));
  const [newField, setNewField] = useState("");
  const [fieldError, setFieldError] = useState("");
  const [savedAs, setSavedAs] = useState<number | null>(null);
  // A new saved version (this page's save, refreshed): the draft starts from it; the notice stays.
  const [from, setFrom] = useState(version);
  if (from !== version) {
    setFrom(version);
    setDraft(structuredClone(saved));
  }
  const checked = useMemo(() => normalized(draft), [draft]);
  const clean = checked.entries;
  const changes = useMemo(() => diffEntries(saved, clean ?? saved), [saved, clean]);
  const dirty = clean !== null && changes.length > 0;
  const draftInput = { kind: "lexicon" as const, entries: clean ?? saved };
  const whatIf = useWhatIf(draftInput, dirty);
  // A suggestion taken with one click (app/_tuning) lands in this draft.
  useDraftInbox({ kind: "lexicon" }, (taken) => setDraft((d) => taken.reduce(takeIntoEntries, d)));

  const setEntry = (field: string, e: LexiconEntry | null) =>
    setDraft((d) => {
      const next = { ...d };
      if (e === null) delete next[field];
      else next[field] = e;
      return next;
    });
  const addField = () => {
    const f = newField.trim();
    if (f === "") return;
    if (Object.hasOwn(draft, f)) return setFieldError(`"${f}" has an entry already`);
    setFieldError("");
    setNewField("");
    setEntry(f, { terms: [], rule: "anywhere" });
  };
  const fields = Object.keys(draft).sort();

  return (
    <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <section
        className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
        data-testid="lexicon-draft"
      >
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 className="text-sm font-semibold tracking-wide text-slate-700 uppercase">Draft</h2>
          <span className="text-xs text-slate-500">from version {version}</span>
        </div>
        <p className="text-xs text-slate-600">
          Terms count as asking for a field of that name in every probe, beside the probe's own. They match
          whole words (one or more; <span className="font-mono">locat*</span> is a prefix), ignoring case and
          accents; in Chinese, Japanese or Thai text anywhere. At most {TERM_LIMITS.termsPerField} terms a
          field, {TERM_LIMITS.termLength} characters a term, {TERM_LIMITS.fields} fields and{" "}
          {TERM_LIMITS.totalTerms.toLocaleString("en-US")} terms in all.
        </p>
        {fields.length === 0 ? (
          <p className="text-sm text-slate-500 italic" data-testid="lexicon-empty">
            The lexicon is empty: every probe scores with its own ask terms. Add a field below.
          </p>
        ) : null}
        <ul className="space-y-3">
          {fields.map((f) => {
            const e = draft[f];
            return (
              <li
                key={f}
                className="rounded border border-slate-200 p-3"
                data-testid="lexicon-entry"
                data-field={f}
              >
                <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
                  <span className="font-mono text-sm font-semibold [overflow-wrap:anywhere]">{f}</span>
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
                {e.rule === "question" ? (
                  <p className="mt-1 text-xs text-slate-500">
                    The probe's own terms for {f} count only inside a question too.
                  </p>
                ) : null}
              </li>
            );
          })}
        </ul>
        <div className="flex flex-wrap items-end gap-2 border-t border-slate-100 pt-3">
          <label className="flex min-w-[12rem] flex-1 flex-col text-xs text-slate-600">
            Add an entry for a field name
            <input
              value={newField}
              onChange={(e) => {
                setNewField(e.target.value);
                setFieldError("");
              }}
              onKeyDown={(e) => {
                if (e.key === "Enter") {
                  e.preventDefault();
                  addField();
                }
              }}
              list="lexicon-field-names"
              maxLength={200}
              className="mt-1 rounded border border-slate-300 px-2 py-1 text-sm text-slate-900"
              data-testid="new-field"
            />
          </label>
          <datalist id="lexicon-field-names">
            {fieldNames.map((f) => (
              <option key={f} value={f} />
            ))}
          </datalist>
          <button
            type="button"
            onClick={addField}
            className="rounded border border-slate-300 bg-white px-2 py-1 text-sm hover:bg-slate-50"
            data-testid="add-field"
          >
            Add field
          </button>
        </div>
        {fieldError ? (
          <p role="alert" className="text-xs text-red-800">
            {fieldError}
          </p>
        ) : null}
        {checked.problem !== null ? (
          <p
            role="alert"
            className="rounded bg-amber-50 p-2 text-sm text-amber-900"
            data-testid="draft-problem"
          >
            This draft cannot be saved: {checked.problem}.
          </p>
        ) : null}
        <div className="flex flex-wrap items-start justify-between gap-3 border-t border-slate-100 pt-3">
          <DraftChanges
            text={describeEntryChanges(changes)}
            dirty={dirty}
            onReset={() => setDraft(structuredClone(saved))}
          />
          <SaveDraft
            draft={draftInput}
            base={version}
            next={`version ${version + 1}`}
            dirty={dirty && whatIf.state !== "computing"}
            seedBroken={whatIf.report?.fixtures.seedBroken ?? 0}
            reviewer={reviewer}
            onSaved={(v) => setSavedAs(v)}
          />
        </div>
        {savedAs !== null ? (
          <p role="status" className="rounded bg-emerald-50 p-2 text-sm text-emerald-900" data-testid="saved">
            Saved lexicon version {savedAs}. Runs scored before it keep their labels until they are re-scored
            (below).
          </p>
        ) : null}
      </section>
      <div className="lg:sticky lg:top-4">
        <WhatIfPanel
          report={dirty ? whatIf.report : null}
          state={dirty ? whatIf.state : "idle"}
          error={whatIf.error}
        />
      </div>
    </div>
  );
}
