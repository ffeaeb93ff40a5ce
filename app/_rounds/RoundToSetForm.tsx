"use client";

import { useState } from "react";
import { addRoundToSetAction, type RoundToSetResult } from "./actions";
import { roundInput as input, RoundForm } from "./RoundForm";

/** Adds a round's settled fields to a fixture set, and says what it skipped. */
export function RoundToSetForm({ rounds }: { rounds: { id: number; name: string }[] }) {
  const [result, setResult] = useState<RoundToSetResult | null>(null);
  if (rounds.length === 0) return null;
  return (
    <RoundForm
      testId="round-to-set"
      headingId="round-set-h"
      title="Add a round's settled labels to a fixture set"
      onSubmit={async (form) =>
        setResult(
          await addRoundToSetAction({
            roundId: Number(form.get("round")),
            set: String(form.get("set") ?? ""),
            single: form.get("single") === "on",
          }),
        )
      }
      button={{ label: "Add to the set", pending: "Adding…", testId: "round-set-add" }}
      error={result && !result.ok ? result.error : ""}
      status={
        result?.ok ? (
          <p
            role="status"
            className="rounded bg-emerald-50 p-2 text-sm text-emerald-900"
            data-testid="round-set-result"
          >
            {result.added} added, {result.relabelled} relabelled, {result.unchanged} unchanged in{" "}
            <a href={`/fixtures/${encodeURIComponent(result.set)}`} className="underline">
              {result.set}
            </a>
            ; skipped {result.skippedDisputed} disputed, {result.skippedSingle} single and{" "}
            {result.skippedOpen} not yet reviewed.
          </p>
        ) : null
      }
    >
      <p className="text-sm text-slate-600">
        Agreed and adjudicated fields by default; each fixture records how its label was settled.
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        <label className="block text-sm">
          Round
          <select name="round" className={input} data-testid="round-set-round">
            {rounds.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
              </option>
            ))}
          </select>
        </label>
        <label className="block text-sm">
          Fixture set
          <input name="set" required maxLength={100} className={input} data-testid="round-set-name" />
        </label>
      </div>
      <label className="flex min-h-6 items-center gap-2 text-sm">
        <input type="checkbox" name="single" className="size-5" data-testid="round-set-single" />
        also fields with a single review
      </label>
    </RoundForm>
  );
}
