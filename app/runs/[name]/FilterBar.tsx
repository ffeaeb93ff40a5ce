"use client";

import { useRouter } from "next/navigation";
import { useRef } from "react";

export interface FilterOption {
  value: string;
  label: string;
}

export interface FilterSelect {
  name: string;
  label: string;
  value: string;
  options: FilterOption[];
  /** Shown for the empty value; without it the select has no empty choice. */
  any?: string;
}

/**
 * The run page's filters as a plain GET form (it works without JavaScript and the URL is the
 * state); with JavaScript a change applies at once.
 */
export function FilterBar({
  action,
  hidden = {},
  selects,
  q,
  clearHref,
}: {
  action: string;
  /** Parameters the form always sends (a run whose name has no path form is `?name=`). */
  hidden?: Record<string, string>;
  selects: FilterSelect[];
  q: string;
  clearHref: string;
}) {
  const form = useRef<HTMLFormElement>(null);
  const router = useRouter();
  const apply = () => {
    const f = form.current;
    if (!f) return;
    const params = new URLSearchParams();
    for (const [k, v] of new FormData(f)) if (typeof v === "string" && v !== "") params.set(k, v);
    router.push(`${action}${params.size ? `?${params}` : ""}`);
  };
  return (
    <form
      ref={form}
      action={action}
      method="get"
      className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-3"
      data-testid="filter-bar"
      onSubmit={(e) => {
        e.preventDefault();
        apply();
      }}
    >
      {Object.entries(hidden).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      {selects.map((s) => (
        <label key={s.name} className="flex flex-col text-xs text-slate-600">
          {s.label}
          <select
            name={s.name}
            defaultValue={s.value}
            onChange={apply}
            className="mt-1 max-w-[14rem] rounded border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900"
            data-testid={`filter-${s.name}`}
          >
            {s.any !== undefined ? <option value="">{s.any}</option> : null}
            {s.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
      ))}
      <label className="flex min-w-[14rem] flex-1 flex-col text-xs text-slate-600">
        Search text and argument values
        <input
          type="search"
          name="q"
          defaultValue={q}
          placeholder="e.g. utc, which zone, tok*"
          title="Whole words, all of them; end a word with * to match words that start with it"
          className="mt-1 rounded border border-slate-300 px-2 py-1 text-sm text-slate-900"
          data-testid="filter-q"
        />
      </label>
      <button type="submit" className="rounded bg-slate-900 px-3 py-1.5 text-sm text-white">
        Apply
      </button>
      <a href={clearHref} className="py-1.5 text-sm text-slate-600 underline">
        Clear
      </a>
    </form>
  );
}
