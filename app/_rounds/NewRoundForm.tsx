"use client";

import { useState, useTransition } from "react";
import { ReviewerLine } from "@/app/_review/ReviewerLine";
import { type ReviewerState, useReviewer } from "@/app/_review/useReviewer";
import { createRoundAction } from "./actions";

/** The form that makes a blind round: name, scope (a run, a probe or a model), N, participants. */
export function NewRoundForm({
  serverReviewer,
  runs,
  probes,
  models,
}: {
  serverReviewer: ReviewerState;
  runs: string[];
  probes: string[];
  models: string[];
}) {
  const reviewer = useReviewer(serverReviewer);
  const [kind, setKind] = useState<"run" | "probe" | "model">("run");
  const [error, setError] = useState("");
  const [pending, start] = useTransition();
  const options = kind === "run" ? runs : kind === "probe" ? probes : models;
  const input = "mt-1 block w-full rounded border border-slate-300 px-2 py-1.5 text-sm min-h-9";

  const submit = (form: FormData) =>
    start(async () => {
      setError("");
      if (!reviewer.name && !(await reviewer.ask())) return;
      const r = await createRoundAction({
        name: String(form.get("name") ?? ""),
        scopeKind: kind,
        scopeValue: String(form.get("scopeValue") ?? ""),
        reviewsPerField: Number(form.get("reviewsPerField") ?? 2),
        participants: String(form.get("participants") ?? ""),
      });
      if (!r.ok) {
        setError(r.error);
        return;
      }
      window.location.assign(`/review/rounds/${r.id}`);
    });

  return (
    <form
      action={submit}
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
      data-testid="new-round"
      aria-labelledby="new-round-h"
    >
      <h2 id="new-round-h" className="font-semibold">
        Make a round
      </h2>
      <ReviewerLine reviewer={reviewer} />
      <div className="grid gap-3 sm:grid-cols-2">
        <label className="block text-sm">
          Name
          <input name="name" required maxLength={100} className={input} data-testid="round-name" />
        </label>
        <label className="block text-sm">
          Reviews per field
          <input
            name="reviewsPerField"
            type="number"
            min={2}
            max={10}
            defaultValue={2}
            className={input}
            data-testid="round-n"
          />
        </label>
        <label className="block text-sm">
          Scope
          <select
            value={kind}
            onChange={(e) => setKind(e.target.value as typeof kind)}
            className={input}
            data-testid="round-scope-kind"
          >
            <option value="run">a run</option>
            <option value="probe">a probe</option>
            <option value="model">a model</option>
          </select>
        </label>
        <label className="block text-sm">
          {kind === "run" ? "Run" : kind === "probe" ? "Probe" : "Model"}
          <input
            name="scopeValue"
            required
            list="round-scope-options"
            className={input}
            data-testid="round-scope-value"
          />
          <datalist id="round-scope-options">
            {options.slice(0, 200).map((o) => (
              <option key={o} value={o} />
            ))}
          </datalist>
        </label>
      </div>
      <label className="block text-sm">
        Participants <span className="text-slate-500">(names, comma-separated; empty: anyone)</span>
        <input name="participants" className={input} data-testid="round-participants" />
      </label>
      <button
        type="submit"
        disabled={pending}
        className="min-h-9 rounded bg-slate-900 px-3 py-1.5 text-sm text-white disabled:opacity-60"
        data-testid="round-create"
      >
        {pending ? "Making the round…" : "Make the round"}
      </button>
      {error ? (
        <p role="alert" className="rounded bg-red-50 p-2 text-sm text-red-800" data-testid="round-error">
          {error}
        </p>
      ) : null}
    </form>
  );
}
