import Link from "next/link";
import { Ident } from "@/app/_components/Breakable";
import { ScrollBox } from "@/app/_components/ScrollBox";
import type { StoredProbe } from "@/db/queries/probes";
import { compileProbe } from "@/lib/probe/compile";

/** Titles come from probe files and inline probes: never let one flood the list. */
function short(s: string, max = 200): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** One page of a group's probes: id and title, tool, probed fields, version, traces. */
export function ProbeTable({
  rows,
  counts,
  testId,
}: {
  rows: StoredProbe[];
  counts: Map<string, number>;
  testId: string;
}) {
  return (
    <ScrollBox label="Probes" className="rounded-lg border border-slate-200 bg-white">
      <table className="w-full text-sm" data-testid={testId}>
        <thead className="border-b border-slate-200 bg-slate-50 text-left text-xs text-slate-600">
          <tr>
            <th className="min-w-[14rem] px-3 py-2 font-medium">Probe</th>
            <th className="min-w-[9rem] px-3 py-2 font-medium">Tool</th>
            <th className="min-w-[8rem] px-3 py-2 font-medium">Probed fields</th>
            <th className="px-3 py-2 text-right font-medium">Version</th>
            <th className="px-3 py-2 text-right font-medium">Traces</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((p) => (
            <tr
              key={p.probe.id}
              className="border-b border-slate-100 align-top last:border-0 hover:bg-slate-50"
              data-testid="probe-row"
            >
              <td className="px-3 py-2">
                <Link
                  href={`/probes/${encodeURIComponent(p.probe.id)}`}
                  className="font-mono font-medium text-indigo-700 hover:underline"
                >
                  <Ident text={p.probe.id} />
                </Link>
                {p.probe.title ? <div className="text-xs text-slate-600">{short(p.probe.title)}</div> : null}
              </td>
              <td className="px-3 py-2 font-mono text-xs">
                {p.probe.tool ? (
                  <>
                    <Ident text={p.probe.tool.name} />
                    <span className="block font-sans text-slate-500">
                      {p.probe.tool.mutating ? "mutating" : "read-only"}
                    </span>
                  </>
                ) : (
                  <span className="font-sans text-slate-500 italic">no fitting tool</span>
                )}
                {p.probe.tools && p.probe.tools.length > 1 ? (
                  <span className="block font-sans text-slate-500">{p.probe.tools.length} tools offered</span>
                ) : null}
              </td>
              <td className="px-3 py-2 font-mono text-xs">
                <Ident text={short(compileProbe(p.probe).fields.join(", "), 300) || "—"} />
              </td>
              <td className="px-3 py-2 text-right font-mono text-xs">v{p.version}</td>
              <td className="px-3 py-2 text-right tabular-nums">
                {(counts.get(p.probe.id) ?? 0).toLocaleString("en-US")}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollBox>
  );
}
