import { LabelChip } from "@/app/_components/LabelChip";
import { When } from "@/app/_components/When";
import type { Reveal } from "@/db/queries/roundViews";

/** After a reviewer saved (and for the adjudicator): the scorer's label and every review of the round, with notes. */
export function RevealCard({ reveal, title }: { reveal: Reveal; title: string }) {
  return (
    <section
      className="space-y-2 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
      data-testid="reveal"
      data-state={reveal.state}
      aria-label={title}
    >
      <h2 className="font-semibold">{title}</h2>
      <p className="text-sm">
        Trace <span className="font-mono">#{reveal.traceId}</span>, field{" "}
        <span className="font-mono">{reveal.field}</span>: the scorer says{" "}
        {reveal.ours ? <LabelChip label={reveal.ours} testId="reveal-ours" /> : "nothing"}; the field is{" "}
        <strong data-testid="reveal-state">{reveal.state}</strong>.
      </p>
      <ul className="space-y-1 text-sm" data-testid="reveal-reviews">
        {reveal.reviews.map((r) => (
          <li key={r.id} className="flex flex-wrap items-baseline gap-2">
            <span className="font-medium">{r.reviewer}</span>
            {r.kind === "adjudication" ? (
              <span className="text-xs text-slate-500">(adjudication)</span>
            ) : null}
            {r.label ? <LabelChip label={r.label} /> : <span className="text-slate-500">cleared</span>}
            {r.note ? <span className="text-slate-700">“{r.note}”</span> : null}
            <span className="text-xs text-slate-500">
              <When iso={r.createdAt} />
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
