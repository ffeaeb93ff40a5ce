"use client";

import { useActionState } from "react";
import { type MakeState, saveMadeProbeAction } from "./actions";

/** Saves the previewed probe and re-ingests the records it matches: the choices ride as hidden inputs. */
export function SaveMadeProbe({ values, matched }: { values: [string, string][]; matched: number }) {
  const [state, action, pending] = useActionState<MakeState, FormData>(saveMadeProbeAction, {});
  return (
    <form action={action} className="space-y-2">
      {values.map(([k, v]) => (
        <input key={`${k}=${v}`} type="hidden" name={k} value={v} />
      ))}
      <button
        type="submit"
        disabled={pending}
        className="rounded bg-indigo-700 px-3 py-2 text-sm text-white disabled:opacity-60"
        data-testid="save-made-probe"
      >
        {pending
          ? "Saving and re-ingesting…"
          : matched > 0
            ? `Save the probe and re-ingest ${matched} record${matched === 1 ? "" : "s"}`
            : "Save the probe"}
      </button>
      {state.error ? (
        <p role="alert" className="text-sm text-red-700" data-testid="made-probe-error">
          {state.error}
        </p>
      ) : null}
    </form>
  );
}
