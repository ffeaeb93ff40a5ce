"use client";

import { useActionState } from "react";
import { type PasteState, pasteProbeAction } from "./actions";

export function PasteForm() {
  const [state, action, pending] = useActionState<PasteState, FormData>(pasteProbeAction, {});
  return (
    <form action={action} className="space-y-2">
      <label htmlFor="probe-json" className="block text-sm text-slate-600">
        Probe JSON
      </label>
      <textarea
        id="probe-json"
        name="json"
        rows={14}
        defaultValue={state.text ?? ""}
        placeholder='{"id": "book_room", "user": "Book a room at 10.", "tool": {"name": "book_room", "parameters": {"type": "object", "properties": {"room": {"type": "string"}}}}}'
        className="w-full min-w-0 rounded border border-slate-300 bg-white p-2 font-mono text-xs"
        data-testid="paste-json"
      />
      {state.error ? (
        <p role="alert" className="text-sm text-red-700" data-testid="paste-error">
          Not saved: {state.error}
        </p>
      ) : null}
      <button
        type="submit"
        disabled={pending}
        className="rounded bg-slate-900 px-3 py-2 text-sm text-white disabled:opacity-60"
        data-testid="paste-save"
      >
        {pending ? "Saving…" : "Validate and save"}
      </button>
    </form>
  );
}
