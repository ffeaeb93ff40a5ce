import { LabelChip } from "@/app/_components/LabelChip";

export interface HumanLabelView {
  field: string;
  label: string;
  source: "review" | "imported";
  differs: boolean;
}

/** A row's current human labels beside ours: a chip per field, marked when it differs from ours. */
export function HumanLabels({ labels }: { labels: HumanLabelView[] }) {
  if (labels.length === 0) return <span className="text-xs text-slate-300">—</span>;
  return (
    <div className="flex flex-wrap gap-1">
      {labels.map((h) => (
        <span
          key={h.field}
          className="inline-flex items-center gap-0.5"
          data-testid="human-chip"
          data-field={h.field}
          data-label={h.label}
          data-source={h.source}
          data-differs={h.differs ? "yes" : "no"}
          title={`${h.field}: ${h.label} (${h.source === "review" ? "reviewed" : "imported"}${h.differs ? ", differs from ours" : ", agrees with ours"})`}
        >
          <LabelChip field={h.field} label={h.label} />
          <span
            className={`text-[11px] ${h.differs ? "font-semibold text-red-700" : "text-emerald-700"}`}
            aria-hidden="true"
          >
            {h.differs ? "≠" : "✓"}
          </span>
          {h.source === "imported" ? <span className="text-[10px] text-slate-400">imp</span> : null}
        </span>
      ))}
    </div>
  );
}
