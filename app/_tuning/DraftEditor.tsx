"use client";

import { createContext, type ReactNode, useContext, useState } from "react";
import type { ReviewerState } from "@/app/_review/useReviewer";
import type { TuneDraft } from "@/lib/tuning/contract";
import { guardOf } from "@/lib/tuning/guard";
import type { TermChange } from "@/lib/tuning/types";
import { SaveDraft } from "./SaveDraft";
import { useWhatIf } from "./useWhatIf";
import { WhatIfPanel } from "./WhatIfPanel";

/**
 * How a suggestion gets into the page's draft: the draft editor gives what it renders below itself
 * (the suggestions panel) the function that applies changes to its own draft state. Null where no
 * draft editor is above.
 */
const TakeIntoDraft = createContext<((changes: TermChange[]) => void) | null>(null);

/** The draft editor's hand-over for suggestions, or null when the page has no draft to take them into. */
export function useTakeIntoDraft(): ((changes: TermChange[]) => void) | null {
  return useContext(TakeIntoDraft);
}

/**
 * A draft made from a saved version. A newer saved version (this page's save, refreshed) starts
 * the draft again from it; `reset` goes back to the saved version.
 */
export function useDraftOf<T>(version: number, fromSaved: () => T) {
  const [draft, setDraft] = useState<T>(fromSaved);
  const [from, setFrom] = useState(version);
  if (from !== version) {
    setFrom(version);
    setDraft(fromSaved());
  }
  return { draft, setDraft, reset: () => setDraft(fromSaved()) };
}

/**
 * The tuning pages' draft editor around its fields (the lexicon's entries, a probe's
 * configuration): the draft's header, its changes in words with "undo all", save as a new version,
 * the live what-if beside it; and below it, what the page shows there, which can take suggestions
 * into the draft.
 */
export function DraftEditor({
  testId,
  version,
  draft,
  dirty,
  changes,
  onReset,
  onTake,
  savedText,
  reviewer,
  children,
  below,
}: {
  testId: string;
  /** The saved version the draft was made from. */
  version: number;
  /** The draft as the what-if and the save take it. */
  draft: TuneDraft;
  /** Whether it differs from the saved version (and could be saved). */
  dirty: boolean;
  /** The draft's changes in words. */
  changes: string;
  onReset: () => void;
  /** Applies suggestions to the draft. */
  onTake: (changes: TermChange[]) => void;
  /** What the page says once the draft is saved as `version`. */
  savedText: (version: number) => string;
  reviewer: ReviewerState;
  /** The draft's fields. */
  children: ReactNode;
  /** What the page shows below the editor (its suggestions take into this draft). */
  below?: ReactNode;
}) {
  const whatIf = useWhatIf(draft, dirty);
  const [savedAs, setSavedAs] = useState<number | null>(null);
  return (
    <TakeIntoDraft.Provider value={onTake}>
      <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <section
          className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
          data-testid={testId}
        >
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 className="text-sm font-semibold tracking-wide text-slate-700 uppercase">Draft</h2>
            <span className="text-xs text-slate-500">from version {version}</span>
          </div>
          {children}
          <div className="flex flex-wrap items-start justify-between gap-3 border-t border-slate-100 pt-3">
            <div className="min-w-0 text-xs text-slate-600">
              <span className="font-medium">Changes: </span>
              <span className="font-mono [overflow-wrap:anywhere]" data-testid="draft-changes">
                {changes}
              </span>
              {dirty ? (
                <button
                  type="button"
                  onClick={onReset}
                  className="ml-2 text-slate-700 underline"
                  data-testid="reset-draft"
                >
                  undo all
                </button>
              ) : null}
            </div>
            <SaveDraft
              draft={draft}
              base={version}
              next={`version ${version + 1}`}
              dirty={dirty && whatIf.state !== "computing"}
              guard={whatIf.report ? guardOf(whatIf.report) : null}
              reviewer={reviewer}
              onSaved={setSavedAs}
            />
          </div>
          {savedAs !== null ? (
            <p
              role="status"
              className="rounded bg-emerald-50 p-2 text-sm text-emerald-900"
              data-testid="saved"
            >
              {savedText(savedAs)}
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
      {below}
    </TakeIntoDraft.Provider>
  );
}
