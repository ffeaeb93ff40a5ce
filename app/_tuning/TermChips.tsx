"use client";

import { useState } from "react";
import { TERM_LIMITS } from "@/lib/lexicon/limits";
import { AddInput } from "./AddInput";

/** Chips shown before "show all": a list past its limits (saved before them) stays a page, not a wall. */
const SHOWN = 60;

/**
 * Terms as removable chips and an input that adds one (Enter or the button). `problem` says why a
 * term cannot be added (shown, nothing added); a list holding as many terms as a field may
 * (lib/lexicon/limits.ts) takes no more.
 */
export function TermChips({
  terms,
  onChange,
  label,
  placeholder,
  problem,
  normalize = (t) => t.trim(),
  testId,
  readOnly = [],
}: {
  terms: readonly string[];
  onChange: (terms: string[]) => void;
  label: string;
  placeholder: string;
  problem?: (term: string) => string | null;
  /** How a typed term is stored (default: trimmed). */
  normalize?: (term: string) => string;
  testId: string;
  /** Terms shown before the editable ones, not removable here (another list's). */
  readOnly?: readonly {
    term: string;
    title: string /** A prefix that says which list it is (`*`). */;
    mark?: string;
  }[];
}) {
  const [all, setAll] = useState(false);
  const add = (typed: string): string | null => {
    const t = normalize(typed);
    if (t === "") return "";
    const full =
      terms.length >= TERM_LIMITS.termsPerField
        ? `this list holds ${terms.length.toLocaleString("en-US")} terms; a field holds at most ${TERM_LIMITS.termsPerField}`
        : null;
    const p = full ?? problem?.(t) ?? null;
    if (p) return p;
    if (!terms.includes(t)) onChange([...terms, t]);
    return null;
  };
  return (
    <div data-testid={testId}>
      <ul className="flex flex-wrap gap-1" aria-label={label}>
        {(all ? readOnly : readOnly.slice(0, SHOWN)).map((r) => (
          <li
            key={`ro:${r.mark ?? ""}:${r.term}`}
            className={`rounded px-1.5 py-0.5 font-mono text-xs ${r.mark ? "bg-violet-100 text-violet-900" : "bg-slate-100 text-slate-600"}`}
            title={r.title}
            data-testid="readonly-term"
            data-mark={r.mark}
          >
            {r.mark ? (
              <>
                <span aria-hidden="true">{r.mark} </span>
                <span className="sr-only">every field: </span>
              </>
            ) : null}
            {r.term}
          </li>
        ))}
        {(all ? terms : terms.slice(0, Math.max(0, SHOWN - readOnly.length))).map((t) => (
          <li
            key={t}
            className="inline-flex items-center gap-0.5 rounded bg-indigo-50 pl-1.5 font-mono text-xs text-indigo-950 ring-1 ring-indigo-200"
            data-testid="term"
            data-term={t}
          >
            {t}
            <button
              type="button"
              onClick={() => onChange(terms.filter((x) => x !== t))}
              className="inline-flex min-h-6 min-w-6 items-center justify-center rounded text-indigo-700 hover:bg-indigo-100"
              aria-label={`remove ${t}`}
              data-testid="remove-term"
            >
              ×
            </button>
          </li>
        ))}
        {terms.length === 0 && readOnly.length === 0 ? (
          <li className="text-xs text-slate-500 italic">no terms</li>
        ) : null}
        {!all && terms.length + readOnly.length > SHOWN ? (
          <li>
            <button
              type="button"
              onClick={() => setAll(true)}
              className="rounded px-1.5 py-0.5 text-xs text-indigo-700 underline"
              data-testid="show-all-terms"
            >
              show all {(terms.length + readOnly.length).toLocaleString("en-US")}
            </button>
          </li>
        ) : null}
      </ul>
      <AddInput
        onAdd={add}
        ariaLabel={`${label}: add`}
        placeholder={placeholder}
        maxLength={TERM_LIMITS.termLength * 2}
        inputTestId="add-term-input"
        buttonTestId="add-term"
      />
    </div>
  );
}
