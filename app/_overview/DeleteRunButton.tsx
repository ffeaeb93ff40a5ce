"use client";

import { useActionState, useRef, useState } from "react";
import { Ident } from "@/app/_components/Breakable";
import { ConfirmDialog } from "@/app/_components/ConfirmDialog";
import { runDeletionImpactAction } from "@/app/_fixtures/actions";
import { type ActionState, deleteRunAction } from "@/app/actions";

/** Delete with a confirmation that names the run and its trace count. */
export function DeleteRunButton({ name, traces }: { name: string; traces: number }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [state, action, pending] = useActionState<ActionState, FormData>(deleteRunAction, {});
  // Asked when the dialog opens: the reviews that go with the run, the fixtures that stay.
  const [impact, setImpact] = useState<{ reviews: number; reviewers: string[]; fixtures: number } | null>(
    null,
  );
  const n = (x: number) => x.toLocaleString("en-US");
  return (
    <>
      <button
        type="button"
        onClick={() => {
          dialog.current?.showModal();
          void runDeletionImpactAction(name).then(setImpact);
        }}
        className="rounded px-2 py-1 text-xs text-red-700 hover:bg-red-50"
        data-testid="delete-run"
        aria-label={`Delete run ${name}`}
      >
        Delete
      </button>
      <ConfirmDialog
        dialog={dialog}
        title="Delete this run?"
        action={action}
        confirm={pending ? "Deleting…" : `Delete ${traces.toLocaleString("en-US")} traces`}
        pending={pending}
        error={state.error}
        testId="delete-dialog"
        confirmTestId="confirm-delete"
      >
        <p className="text-sm text-slate-700">
          Run <Ident text={name} className="font-mono font-semibold" /> and its{" "}
          <strong>{traces.toLocaleString("en-US")} traces</strong> will be deleted, with their labels,{" "}
          <span data-testid="delete-reviews">
            {impact === null ? (
              "their reviews"
            ) : (
              <>
                <strong>
                  {n(impact.reviews)} review{impact.reviews === 1 ? "" : "s"}
                </strong>
                {impact.reviewers.length
                  ? ` (by ${impact.reviewers.slice(0, 5).join(", ")}${impact.reviewers.length > 5 ? "…" : ""})`
                  : ""}
              </>
            )}
          </span>{" "}
          and the run's rejected lines. Probes and other runs are not touched
          {impact?.fixtures === 0 ? (
            "."
          ) : (
            <>
              , and{" "}
              <span data-testid="delete-fixtures">
                {impact === null
                  ? "fixtures made from its traces"
                  : `the ${n(impact.fixtures)} fixture${impact.fixtures === 1 ? "" : "s"} made from its traces`}
              </span>{" "}
              stay in their sets with their own copy.
            </>
          )}
        </p>
        <input type="hidden" name="name" value={name} />
        <input type="hidden" name="traces" value={traces} />
      </ConfirmDialog>
    </>
  );
}
