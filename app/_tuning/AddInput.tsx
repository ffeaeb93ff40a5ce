"use client";

import { type ReactNode, useId, useState } from "react";

/**
 * A text input whose text is added with Enter or the button: `onAdd` adds it and answers null (the
 * input is cleared), or answers why it cannot be added (shown under it; the text stays to correct).
 * Text that is only white space adds nothing.
 */
export function AddInput({
  onAdd,
  label,
  ariaLabel,
  placeholder,
  button = "Add",
  maxLength,
  offered,
  className = "mt-1 flex gap-1",
  inputClassName = "",
  inputTestId,
  buttonTestId,
}: {
  onAdd: (text: string) => string | null;
  /** A visible label above the input (else `ariaLabel` names it). */
  label?: ReactNode;
  ariaLabel?: string;
  placeholder?: string;
  button?: string;
  maxLength: number;
  /** Values the browser offers as the input is typed: the datalist's id and its values. */
  offered?: { id: string; values: readonly string[] };
  className?: string;
  inputClassName?: string;
  inputTestId: string;
  buttonTestId: string;
}) {
  const [value, setValue] = useState("");
  const [error, setError] = useState("");
  const id = useId();
  const add = () => {
    if (value.trim() === "") return;
    const problem = onAdd(value);
    setError(problem ?? "");
    if (problem === null) setValue("");
  };
  const input = (
    <input
      id={id}
      value={value}
      onChange={(e) => {
        setValue(e.target.value);
        setError("");
      }}
      onKeyDown={(e) => {
        if (e.key === "Enter") {
          e.preventDefault();
          add();
        }
      }}
      placeholder={placeholder}
      aria-label={ariaLabel}
      list={offered?.id}
      maxLength={maxLength}
      className={`rounded border border-slate-300 px-2 py-1 text-sm ${label ? "mt-1 text-slate-900" : "min-w-0 flex-1"} ${inputClassName}`}
      data-testid={inputTestId}
    />
  );
  return (
    <>
      <div className={className}>
        {label ? (
          <label htmlFor={id} className="flex min-w-[12rem] flex-1 flex-col text-xs text-slate-600">
            {label}
            {input}
          </label>
        ) : (
          input
        )}
        {offered ? (
          <datalist id={offered.id}>
            {offered.values.map((v) => (
              <option key={v} value={v} />
            ))}
          </datalist>
        ) : null}
        <button
          type="button"
          onClick={add}
          className="rounded border border-slate-300 bg-white px-2 py-1 text-sm hover:bg-slate-50"
          data-testid={buttonTestId}
        >
          {button}
        </button>
      </div>
      {error ? (
        <p role="alert" className="mt-1 text-xs text-red-800">
          {error}
        </p>
      ) : null}
    </>
  );
}
