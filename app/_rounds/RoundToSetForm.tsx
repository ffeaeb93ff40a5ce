"use client";

import { useState, useTransition } from "react";
import { addRoundToSetAction, type RoundToSetResult } from "./actions";

/** Adds a round's settled fields to a fixture set, and says what it skipped. */
export function RoundToSetForm({ rounds }: { rounds: { id: number; name: string }[] }) {
  const [result, setResult] = useState<RoundToSetResult | null>(null);
  const [pending, start] = useTransition();
  const input = "mt-1 block w-full rounded border border-slate-300 px-2 py-1.5 text-sm min-h-9";
  if (rounds.length === 0) return null;
  return (
    <form
      action={(form) =>
        start(async () => {
          setResult(
            await addRoundToSetAction({
              roundId: Number(form.get("round")),
              set: String(form.get("set") ?? ""),
              single: form.get("single") === "on",
            }),
          );
        })
      }
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
      aria-labelledby="round-set-h"
      data-testid="round-to-set"
    >
      <h2 id="round-set-h" className="font-semibold">
        Add a round's settled labels to a fixture set
      </h2>
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
      <button
        type="submit"
        disabled={pending}
        className="min-h-9 rounded bg-slate-900 px-3 py-1.5 text-sm text-white disabled:opacity-60"
        data-testid="round-set-add"
      >
        {pending ? "Adding…" : "Add to the set"}
      </button>
      {result ? (
        result.ok ? (
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
        ) : (
          <p role="alert" className="rounded bg-red-50 p-2 text-sm text-red-800">
            {result.error}
          </p>
        )
      ) : null}
    </form>
  );
}
