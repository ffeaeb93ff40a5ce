"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { MAX_REVIEWER_LENGTH } from "@/lib/review/contract";
import { REVIEWER_STORAGE_KEY as LOCAL_KEY } from "@/lib/review/keys";
import { setReviewerAction } from "./actions";

function remembered(): string | null {
  try {
    return localStorage.getItem(LOCAL_KEY);
  } catch {
    return null;
  }
}

function remember(name: string): void {
  try {
    localStorage.setItem(LOCAL_KEY, name);
  } catch {
    // Private mode: the name lasts while the cookie does.
  }
}

export interface ReviewerState {
  name: string | null;
  source: "session" | "browser";
}

/**
 * The one reviewer-name UI of every page that writes under a name (the trace page, the queue,
 * bulk relabel, the tuning pages): who is reviewing, from the page (the server's lookup), else
 * the name this browser gave before (localStorage, sent back to the server's cookie). `ask` opens
 * a small dialog for the name once and resolves with it (null when dismissed); `askOnArrival`
 * opens it as the page opens when no name is known (the queue, where every key reviews).
 */
export function useReviewer(
  server: ReviewerState,
  { askOnArrival = false }: { askOnArrival?: boolean } = {},
) {
  const [name, setName] = useState<string | null>(server.name);
  const dialog = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const waiting = useRef<((name: string | null) => void) | null>(null);
  const [error, setError] = useState("");
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (server.name) {
      remember(server.name);
      return;
    }
    const local = remembered();
    if (local && server.source === "browser") {
      // The cookie is gone (cleared, another port) but the browser remembers: give it back.
      void setReviewerAction({ name: local }).then((r) => {
        if (r.ok) setName(r.name);
      });
    }
  }, [server.name, server.source]);

  const ask = useCallback((): Promise<string | null> => {
    return new Promise((resolve) => {
      waiting.current = resolve;
      setError("");
      const d = dialog.current;
      if (d && !d.open) d.showModal();
      if (input.current) {
        input.current.value = name ?? remembered() ?? "";
        input.current.select();
      }
    });
  }, [name]);

  const finish = (value: string | null) => {
    dialog.current?.close();
    const w = waiting.current;
    waiting.current = null;
    w?.(value);
  };

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    const value = input.current?.value.trim() ?? "";
    if (value === "") {
      setError("Type the name your reviews will carry.");
      return;
    }
    setSaving(true);
    const r = await setReviewerAction({ name: value });
    setSaving(false);
    if (!r.ok) {
      setError(r.error);
      return;
    }
    remember(r.name);
    setName(r.name);
    finish(r.name);
  };

  const element = (
    <dialog
      ref={dialog}
      aria-labelledby="reviewer-title"
      className="m-auto w-[min(26rem,calc(100vw-2rem))] rounded-lg border border-slate-200 p-0 shadow-xl backdrop:bg-slate-900/30"
      data-testid="reviewer-dialog"
      onCancel={() => finish(null)}
    >
      <form onSubmit={save} className="space-y-3 p-4">
        <h2 id="reviewer-title" className="text-sm font-semibold text-slate-900">
          Who is reviewing?
        </h2>
        <p className="text-sm text-slate-600">
          Every review carries your name, so others see who relabeled what. This browser remembers it.
        </p>
        <label className="block text-xs text-slate-600">
          Your name
          <input
            ref={input}
            name="reviewer"
            autoComplete="name"
            maxLength={MAX_REVIEWER_LENGTH}
            className="mt-1 block w-full rounded border border-slate-300 px-2 py-1.5 text-sm text-slate-900"
            data-testid="reviewer-name-input"
          />
        </label>
        {error ? (
          <p role="alert" className="rounded bg-red-50 p-2 text-sm text-red-800">
            {error}
          </p>
        ) : null}
        <div className="flex justify-end gap-2">
          <button
            type="button"
            onClick={() => finish(null)}
            className="rounded border border-slate-300 px-3 py-1.5 text-sm"
          >
            Cancel
          </button>
          <button
            type="submit"
            disabled={saving}
            className="rounded bg-slate-900 px-3 py-1.5 text-sm text-white disabled:opacity-60"
            data-testid="reviewer-save"
          >
            {saving ? "Saving…" : "Save and go on"}
          </button>
        </div>
      </form>
    </dialog>
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: asked once, as the page opens
  useEffect(() => {
    if (askOnArrival && !server.name && !remembered()) void ask();
  }, []);

  return { name, source: server.source, ask, dialog: element };
}

export type Reviewer = ReturnType<typeof useReviewer>;
