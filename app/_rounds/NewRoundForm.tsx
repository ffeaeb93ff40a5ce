"use client";

import { useState } from "react";
import { ReviewerLine } from "@/app/_review/ReviewerLine";
import { type ReviewerState, useReviewer } from "@/app/_review/useReviewer";
import { createRoundAction } from "./actions";
import { roundInput as input, RoundForm } from "./RoundForm";

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
  const options = kind === "run" ? runs : kind === "probe" ? probes : models;

  const submit = async (form: FormData) => {
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
  };

  return (
    <RoundForm
      testId="new-round"
      headingId="new-round-h"
      title="Make a round"
      onSubmit={submit}
      button={{ label: "Make the round", pending: "Making the round…", testId: "round-create" }}
      error={error}
      errorTestId="round-error"
    >
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
    </RoundForm>
  );
}
