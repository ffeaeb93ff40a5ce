import type { TraceFilter } from "@/lib/traceFilter";

const FILTER_WORDS: [keyof TraceFilter, string][] = [
  ["field", "field"],
  ["label", "label"],
  ["reason", "reason"],
  ["flag", "flag"],
  ["gate", "gate"],
  ["human", "human"],
  ["recorded", "recorded"],
  ["probe", "probe"],
  ["q", "search"],
];

/**
 * Which list j/k move through: "within filter label=DRIFT" only when this trace is in that
 * filter; a trace opened outside it (directly, or relabelled since) says so instead.
 */
export function FilterNote({ filter, inFilter }: { filter: TraceFilter; inFilter: boolean }) {
  const active = FILTER_WORDS.filter(([k]) => filter[k] !== undefined && filter[k] !== "");
  const chips = active.map(([k, word]) => (
    <span key={k} className="ml-1 rounded bg-slate-100 px-1 font-mono">
      {word}={String(filter[k]).slice(0, 60)}
    </span>
  ));
  // A field alone narrows nothing: every trace has its labels.
  const narrows = active.some(([k]) => k !== "field");
  return (
    <p
      className={`text-xs ${narrows && !inFilter ? "text-amber-900" : "text-slate-500"}`}
      data-testid="filter-summary"
      data-in-filter={inFilter ? "yes" : "no"}
    >
      {!narrows ? (
        "within the whole run"
      ) : inFilter ? (
        <>within filter{chips}</>
      ) : (
        <>not in the filter{chips}; j/k move among the traces that are</>
      )}
    </p>
  );
}
