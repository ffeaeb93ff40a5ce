import Link from "next/link";
import type { ReactNode } from "react";
import { ScrollBox } from "@/app/_components/ScrollBox";
import { When } from "@/app/_components/When";

/** How a version came to be, in words: the origins the lexicon and probes record (db/queries). */
export function versionOrigin(o: string): string {
  const words: Record<string, string> = {
    edit: "edited",
    suggest: "suggestions applied",
    builtin: "built-in file",
    when2call: "When2Call import",
    rescore: "re-score (an older world, the current configuration)",
    "made:paste": "pasted",
    "made:browser": "made in the browser",
  };
  if (Object.hasOwn(words, o)) return words[o];
  if (o.startsWith("file:")) return `file ${o.slice(5)}`;
  if (o.startsWith("inline:")) return `inline in ${o.slice(7)}`;
  if (o.startsWith("import:")) return `fixture import ${o.slice(7)}`;
  return o;
}

export interface VersionRow {
  version: number;
  savedBy: string | null;
  origin: string;
  createdAt: string;
  /** The page's own cells after "When", one per column it adds. */
  cells: ReactNode[];
}

/**
 * The versions of the lexicon or of a probe, as the lexicon page, a probe's page and its tune page
 * list them: each version (linked when the page can show it, marked when it is the one shown), who
 * saved it, how it came to be, when, and the page's own columns.
 */
export function VersionTable({
  label,
  testId,
  rowTestId,
  columns,
  rows,
  current,
  viewing,
  href,
}: {
  /** What the table holds, for screen readers. */
  label: string;
  testId: string;
  rowTestId: string;
  /** The page's own columns after "When": a heading and its cells' classes. */
  columns: { title: string; className: string }[];
  rows: VersionRow[];
  current: number;
  /** The version the page shows (marked instead of linked). */
  viewing?: number;
  /** Where a version's link goes; without it versions are not linked. */
  href?: (version: number) => string;
}) {
  const headings = ["Version", "Saved by", "How", "When", ...columns.map((c) => c.title)];
  return (
    <ScrollBox label={label}>
      <table className="w-full text-sm" data-testid={testId}>
        <thead className="border-b border-slate-200 text-left text-xs text-slate-500">
          <tr>
            {headings.map((h, i) => (
              <th key={h} className={`py-1 font-medium ${i < headings.length - 1 ? "pr-3" : ""}`}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((v) => (
            <tr
              key={v.version}
              className={`border-b border-slate-100 align-top last:border-0 ${v.version === viewing ? "bg-indigo-50/60" : ""}`}
              data-testid={rowTestId}
              data-version={v.version}
            >
              <td className="py-1 pr-3 whitespace-nowrap">
                {v.version === viewing ? (
                  <span className="font-mono font-semibold" aria-current="page">
                    v{v.version}{" "}
                    <span className="font-sans text-xs font-normal text-indigo-700">viewing</span>
                  </span>
                ) : href ? (
                  <Link href={href(v.version)} className="font-mono text-indigo-700 hover:underline">
                    v{v.version}
                  </Link>
                ) : (
                  <span className="font-mono">v{v.version}</span>
                )}
                {v.version === current ? <span className="ml-1 text-xs text-slate-500">current</span> : null}
              </td>
              <td className="py-1 pr-3">{v.savedBy ?? "—"}</td>
              <td className="py-1 pr-3 text-xs">{versionOrigin(v.origin)}</td>
              <td className="py-1 pr-3 font-mono text-xs text-slate-600">
                <When iso={v.createdAt} />
              </td>
              {v.cells.map((cell, i) => (
                <td
                  key={columns[i]?.title ?? i}
                  className={`py-1 ${i < v.cells.length - 1 ? "pr-3" : ""} ${columns[i]?.className ?? ""}`}
                >
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollBox>
  );
}
