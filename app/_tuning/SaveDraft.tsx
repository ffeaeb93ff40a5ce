"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { ConfirmDialog } from "@/app/_components/ConfirmDialog";
import { type ReviewerState, useReviewer } from "@/app/_review/useReviewer";
import type { TuneDraft } from "@/lib/tuning/contract";
import { guardWords, needsConfirmation, type SaveGuard } from "@/lib/tuning/guard";
import { saveDraftAction } from "./actions";

/**
 * Saves a draft as a new version. When the what-if's guard (lib/tuning/guard.ts) says it breaks seed
 * fixtures (the server checks again), the confirm dialog asks for an explicit confirmation first. Someone else's save since the draft's
 * base version is refused and said.
 */
export function SaveDraft({
  draft,
  base,
  next,
  dirty,
  guard,
  reviewer: server,
  onSaved,
}: {
  draft: TuneDraft;
  base: number;
  /** What saving makes, for the button ("lexicon v3"). */
  next: string;
  dirty: boolean;
  /** What saving needs confirmed, by the live what-if (the server checks again); null until it answers. */
  guard: SaveGuard | null;
  reviewer: ReviewerState;
  onSaved: (version: number) => void;
}) {
  const router = useRouter();
  const reviewer = useReviewer(server);
  const dialog = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  // What the dialog asks to confirm: the live what-if's guard, or the server's when it differs.
  const [asked, setAsked] = useState<SaveGuard>({ seedBroken: 0, fixturesBroken: 0, reviewedAway: 0 });

  const save = async (allowBreak: boolean) => {
    setError("");
    let name = reviewer.name;
    if (!name && reviewer.source === "browser") name = await reviewer.ask();
    if (!name) return setError("Say who is saving first.");
    setBusy(true);
    const r = await saveDraftAction({ draft, base, allowBreak, reviewer: name });
    setBusy(false);
    if (r.ok) {
      dialog.current?.close();
      onSaved(r.version);
      router.refresh();
      return;
    }
    if (r.guard) {
      setAsked(r.guard);
      if (!dialog.current?.open) dialog.current?.showModal();
      return;
    }
    setError(r.error);
  };

  const ask = () => {
    if (guard && needsConfirmation(guard)) {
      setAsked(guard);
      dialog.current?.showModal();
    } else void save(false);
  };

  const seedOnly = asked.fixturesBroken === 0 && asked.reviewedAway === 0;
  return (
    <div className="space-y-2">
      {reviewer.dialog}
      <button
        type="button"
        onClick={ask}
        disabled={!dirty || busy}
        className="rounded bg-indigo-700 px-3 py-1.5 text-sm text-white hover:bg-indigo-800 disabled:opacity-50"
        data-testid="save-draft"
      >
        {busy ? "Saving…" : `Save as ${next}`}
      </button>
      {error ? (
        <p role="alert" className="rounded bg-red-50 p-2 text-sm text-red-800" data-testid="save-error">
          {error}
        </p>
      ) : null}
      <ConfirmDialog
        dialog={dialog}
        title={
          seedOnly
            ? `This breaks ${asked.seedBroken} seed fixture${asked.seedBroken === 1 ? "" : "s"}`
            : `This moves ${guardWords(asked)}`
        }
        action={() => save(true)}
        confirm={busy ? "Saving…" : seedOnly ? `Save and break ${asked.seedBroken}` : "Save anyway"}
        pending={busy}
        testId="break-dialog"
        confirmTestId="confirm-break"
      >
        {asked.seedBroken > 0 ? (
          <p className="text-sm text-slate-700">
            The seed set holds the first article's four cases, which the default configuration passes. Saving
            this draft makes {asked.seedBroken === 1 ? "one of them" : "some of them"} fail.
          </p>
        ) : null}
        {asked.fixturesBroken > 0 ? (
          <p className="text-sm text-slate-700" data-testid="guard-fixtures">
            {asked.fixturesBroken} fixture{asked.fixturesBroken === 1 ? "" : "s"} of your sets would no longer
            get {asked.fixturesBroken === 1 ? "its" : "their"} expected label.
          </p>
        ) : null}
        {asked.reviewedAway > 0 ? (
          <p className="text-sm text-slate-700" data-testid="guard-reviewed">
            {asked.reviewedAway} field{asked.reviewedAway === 1 ? "" : "s"} a reviewer labelled would move
            away from that review (the what-if lists them).
          </p>
        ) : null}
        <p className="text-sm text-slate-700">Save it anyway?</p>
      </ConfirmDialog>
    </div>
  );
}
