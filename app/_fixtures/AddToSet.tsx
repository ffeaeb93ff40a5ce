"use client";

import Link from "next/link";
import { useCallback, useEffect, useRef, useState } from "react";
import { ConfirmDialog } from "@/app/_components/ConfirmDialog";
import { isTyping } from "@/app/_components/keyboard";
import { FIXTURE_SET_STORAGE_KEY, fixtureAction } from "@/lib/review/keys";
import { type AddToSetResult, addToSetAction, writableSetNamesAction } from "./actions";

export interface AddTarget {
  traceId: number;
  field: string;
}

function rememberedSet(): string {
  try {
    return localStorage.getItem(FIXTURE_SET_STORAGE_KEY) ?? "";
  } catch {
    return "";
  }
}

function remember(name: string): void {
  try {
    localStorage.setItem(FIXTURE_SET_STORAGE_KEY, name);
  } catch {
    // Private mode: the set is asked again next time.
  }
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/**
 * Adds a reviewed field to a fixture set: `a` adds it to the set used last (remembered by this
 * browser), Shift+A (or the first time) asks which set, a new name creating it. The expected
 * label is the field's current human label, so label first. `target` says which field: the
 * trace page's focused one, the queue's last labelled one.
 */
export function AddToSet({
  target,
  what,
  reviewer,
}: {
  target: () => AddTarget | null;
  /** How the button names the field it adds ("the focused field", "the field you labelled last"). */
  what: string;
  /** The name this browser remembers, for pages that keep it themselves (the queue). */
  reviewer?: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const [set, setSet] = useState("");
  const [names, setNames] = useState<string[]>([]);
  const [status, setStatus] = useState<{ text: string; href?: string; ok: boolean } | null>(null);
  const [error, setError] = useState("");
  const [pending, setPending] = useState(false);
  const [ready, setReady] = useState(false);

  useEffect(() => setSet(rememberedSet()), []);

  const add = useCallback(
    async (name: string) => {
      const t = target();
      if (!t) {
        setStatus({ text: "Nothing to add yet: label a field first.", ok: false });
        return;
      }
      setPending(true);
      let r: AddToSetResult;
      try {
        r = await addToSetAction({
          traceId: t.traceId,
          field: t.field,
          set: name,
          reviewer: reviewer || undefined,
        });
      } finally {
        setPending(false);
      }
      if (!r.ok) {
        setStatus({
          text: `Not added: ${r.needsReviewer ? "say who is reviewing first (your name goes with the fixture)" : r.error}.`,
          ok: false,
        });
        return;
      }
      remember(r.set);
      setSet(r.set);
      const href = `/fixtures/${encodeURIComponent(r.set)}/${r.identity}`;
      const text =
        r.outcome === "added"
          ? `Added ${t.field} of #${t.traceId} to ${r.created ? "the new set " : ""}${r.set}, expected ${r.expected}.`
          : r.outcome === "relabelled"
            ? `${t.field} of #${t.traceId} was in ${r.set} already: its expected label is now ${r.expected} (the old one stays in its history).`
            : `${t.field} of #${t.traceId} is in ${r.set} already, expected ${r.expected}: nothing changed.`;
      setStatus({ text, href, ok: true });
    },
    [reviewer, target],
  );

  const choose = useCallback(async () => {
    setError("");
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    if (input.current) {
      input.current.value = rememberedSet();
      input.current.select();
    }
    setNames(await writableSetNamesAction());
  }, []);

  const submit = () => {
    const name = input.current?.value.trim() ?? "";
    if (!NAME.test(name) || name.length > 100) {
      setError("A set name holds letters, digits and _ . - (not first), up to 100 characters.");
      return;
    }
    if (name === "seed") {
      setError("The seed set is read-only: choose another set.");
      return;
    }
    dialog.current?.close();
    void add(name);
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e) || document.querySelector("dialog[open]")) return;
      const a = fixtureAction(e.key);
      if (!a) return;
      e.preventDefault();
      const remembered = rememberedSet();
      if (a.kind === "chooseSet" || !remembered) void choose();
      else void add(remembered);
    };
    window.addEventListener("keydown", onKey);
    setReady(true);
    return () => window.removeEventListener("keydown", onKey);
  }, [add, choose]);

  return (
    <div
      className="mt-2 text-xs"
      data-testid="add-to-set"
      data-ready={ready ? "yes" : "no"}
      data-pending={pending ? "yes" : "no"}
    >
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          disabled={pending}
          onClick={() => (set ? void add(set) : void choose())}
          className="rounded border border-slate-300 bg-white px-2 py-1 text-slate-700 hover:bg-slate-50 disabled:opacity-50"
          data-testid="add-to-set-button"
          title={`a: add ${what} to ${set ? `the set ${set}` : "a fixture set"}, its human label as the expected one`}
        >
          Add {what} to {set ? <span className="font-mono">{set}</span> : "a fixture set"}{" "}
          <kbd className="font-mono text-slate-500">a</kbd>
        </button>
        <button
          type="button"
          disabled={pending}
          onClick={() => void choose()}
          className="inline-flex min-h-6 items-center gap-1 text-indigo-700 underline disabled:opacity-50"
          data-testid="choose-set"
        >
          {set ? "another set" : "choose a set"} <kbd className="font-mono text-slate-500">Shift+a</kbd>
        </button>
      </div>
      <p
        role="status"
        aria-live="polite"
        className={
          status
            ? `mt-1 rounded px-2 py-1 ${status.ok ? "bg-emerald-50 text-emerald-900" : "bg-amber-50 text-amber-900"}`
            : "sr-only"
        }
        data-testid="add-to-set-status"
      >
        {status?.text}{" "}
        {status?.href ? (
          <Link href={status.href} className="underline" data-testid="fixture-link">
            open the fixture
          </Link>
        ) : null}
      </p>
      <ConfirmDialog
        dialog={dialog}
        title={`Add ${what} to a fixture set`}
        onSubmit={submit}
        confirm="Add"
        tone="primary"
        error={error}
        initialFocus={input}
        testId="choose-set-dialog"
        confirmTestId="set-name-save"
      >
        <p className="text-sm text-slate-600">
          Its current human label becomes the fixture's expected label. A new name makes a new set; this
          browser remembers the set for the next <kbd className="font-mono">a</kbd>.
        </p>
        <label className="block text-xs font-medium text-slate-600" htmlFor="fixture-set-name">
          Set name
        </label>
        <input
          id="fixture-set-name"
          ref={input}
          list="fixture-set-names"
          maxLength={100}
          autoComplete="off"
          className="w-full rounded border border-slate-300 px-2 py-1 font-mono text-sm"
          data-testid="set-name-input"
          placeholder="regressions"
        />
        <datalist id="fixture-set-names">
          {names.map((n) => (
            <option key={n} value={n} />
          ))}
        </datalist>
      </ConfirmDialog>
    </div>
  );
}
