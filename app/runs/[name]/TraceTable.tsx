import Link from "next/link";
import { FlagList } from "@/app/_components/FlagList";
import { GateBadge } from "@/app/_components/GateBadge";
import { LabelChip } from "@/app/_components/LabelChip";
import type { TraceListRow } from "@/db/queries/traceList";
import { responsePreview } from "@/lib/preview";

/** One row per trace: a chip per probed field, flags, gate, latency, probe, what the model did. */
export function TraceTable({
  rows,
  query,
  showProbe,
  field,
}: {
  rows: TraceListRow[];
  query: string;
  showProbe: boolean;
  field: string | null;
}) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table className="w-full text-sm" data-testid="trace-table">
        <thead className="border-b border-slate-200 bg-slate-50 text-left text-xs text-slate-600">
          <tr>
            <th className="px-3 py-2 font-medium">Trace</th>
            {showProbe ? <th className="px-3 py-2 font-medium">Probe</th> : null}
            <th className="px-3 py-2 font-medium">Labels</th>
            <th className="px-3 py-2 font-medium">Flags</th>
            <th className="px-3 py-2 font-medium">Gate</th>
            <th className="px-3 py-2 text-right font-medium">Latency</th>
            <th className="px-3 py-2 font-medium">Response</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const href = `/traces/${r.id}${query ? `?${query}` : ""}`;
            const fieldFlags = Object.values(r.result.fields).flatMap((f) => f.flags);
            const flags = [...r.result.flags, ...new Set(fieldFlags)];
            const entries = Object.entries(r.labels);
            // The filtered field first, so the chip the reviewer filtered by leads.
            entries.sort((a, b) => (a[0] === field ? -1 : b[0] === field ? 1 : 0));
            return (
              <tr
                key={r.id}
                className="border-b border-slate-100 align-top last:border-0 hover:bg-slate-50 data-[active=true]:bg-indigo-50 data-[active=true]:outline-2 data-[active=true]:outline-indigo-400"
                data-testid="trace-row"
              >
                <td className="px-3 py-2 whitespace-nowrap">
                  <Link
                    href={href}
                    className="font-mono text-indigo-700 hover:underline"
                    data-testid="trace-link"
                  >
                    #{r.id}
                  </Link>
                  <div className="font-mono text-[11px] text-slate-500">
                    {r.extId ? r.extId : `${r.source}:${r.line}`}
                  </div>
                </td>
                {showProbe ? (
                  <td className="px-3 py-2 font-mono text-xs break-all text-slate-700">{r.probeId}</td>
                ) : null}
                <td className="px-3 py-2">
                  <div className="flex flex-wrap gap-1">
                    {entries.length === 0 ? (
                      <span className="text-xs text-slate-400">no probed field</span>
                    ) : null}
                    {entries.map(([f, label]) => (
                      <LabelChip key={f} field={f} label={label} testId="label-chip" />
                    ))}
                  </div>
                </td>
                <td className="px-3 py-2">
                  <FlagList flags={flags} />
                </td>
                <td className="px-3 py-2">
                  <GateBadge verdict={r.result.gate.verdict} />
                </td>
                <td className="px-3 py-2 text-right font-mono text-xs whitespace-nowrap text-slate-600 tabular-nums">
                  {r.latencyMs === null ? "—" : `${Math.round(r.latencyMs).toLocaleString("en-US")} ms`}
                </td>
                <td className="max-w-[36rem] px-3 py-2 text-xs break-words text-slate-700">
                  <Link href={href} className="hover:underline">
                    {responsePreview(r.response)}
                  </Link>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
