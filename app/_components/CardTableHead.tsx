import type { ReactNode } from "react";

/** A column's name, or its name with classes of its own (one hidden on a phone). */
export type HeadColumn = string | { name: ReactNode; className: string };

/**
 * The header row of a table inside a card (facts, arguments, parameters, versions): small grey
 * names over a line, each but the last with a gap on its right. `roomy` gives the taller rows of
 * the tables a reviewer reads line by line. A column that is null or false is left out.
 */
export function CardTableHead({
  columns,
  roomy = false,
}: {
  columns: readonly (HeadColumn | null | false)[];
  roomy?: boolean;
}) {
  const shown = columns.filter((c): c is HeadColumn => c !== null && c !== false);
  return (
    <thead className="border-b border-slate-200 text-left text-xs text-slate-500">
      <tr>
        {shown.map((c, i) => {
          const own = typeof c === "string" ? null : c.className;
          const name = typeof c === "string" ? c : c.name;
          const cls = [roomy ? "py-1.5" : "py-1", i < shown.length - 1 ? "pr-3" : null, "font-medium", own];
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: a header's columns never reorder
            <th key={i} className={cls.filter(Boolean).join(" ")}>
              {name}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}
