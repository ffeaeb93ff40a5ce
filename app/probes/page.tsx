import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { getDb } from "@/db/client";
import { listProbes, type StoredProbe } from "@/db/queries/probes";
import { probeOrigins, tracesPerProbe } from "@/db/queries/probeUsage";
import { compileProbe } from "@/lib/probe/compile";

export const metadata: Metadata = { title: "Probes" };

/** Titles come from probe files and inline probes: never let one flood the list. */
function short(s: string, max = 200): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

function groupOf(origin: string | undefined, p: StoredProbe): "builtin" | "when2call" | "added" {
  if (p.builtin) return "builtin";
  if (origin === "when2call") return "when2call";
  return "added";
}

const GROUPS = [
  { key: "builtin", title: "Built-in", note: "shipped in fixtures/probes/" },
  {
    key: "added",
    title: "Added",
    note: "from probe files (assumeprobe probes add) or inline in trace records",
  },
  {
    key: "when2call",
    title: "When2Call calibration",
    note: "one probe per NVIDIA When2Call question (Apache-2.0)",
  },
] as const;

export default async function ProbesPage({ searchParams }: Props) {
  await connection();
  const sp = await searchParams;
  const q = (Array.isArray(sp.q) ? sp.q[0] : sp.q)?.trim().slice(0, 200) ?? "";
  const db = getDb();
  const probes = listProbes(db);
  const origins = probeOrigins(db);
  const counts = tracesPerProbe(db);
  const needle = q.toLowerCase();
  const shown = needle
    ? probes.filter(
        (p) =>
          p.probe.id.toLowerCase().includes(needle) ||
          (p.probe.title ?? "").toLowerCase().includes(needle) ||
          (p.probe.tool?.name ?? "").toLowerCase().includes(needle),
      )
    : probes;

  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-xl font-semibold">Probes</h1>
        <p className="mt-1 text-sm text-slate-600">
          Each probe is one closed world: what the model sees, what is true, and the tool whose call is
          scored. Every change to a probe is a new version; traces keep the version that scored them.
        </p>
      </div>
      <form method="get" className="flex items-center gap-2">
        <label htmlFor="probe-q" className="text-sm text-slate-600">
          Find
        </label>
        <input
          id="probe-q"
          name="q"
          defaultValue={q}
          placeholder="id, title or tool"
          className="w-72 rounded border border-slate-300 bg-white px-2 py-1 text-sm"
          data-testid="probe-search"
        />
        <button type="submit" className="rounded bg-slate-900 px-3 py-1 text-sm text-white">
          Search
        </button>
        {q ? (
          <Link href="/probes" className="text-sm text-indigo-700 hover:underline">
            clear
          </Link>
        ) : null}
        <span className="text-sm text-slate-500" data-testid="probe-count">
          {shown.length === probes.length
            ? `${probes.length} probes`
            : `${shown.length} of ${probes.length} probes`}
        </span>
      </form>
      {shown.length === 0 ? <p className="text-sm text-slate-500 italic">No probe matches.</p> : null}
      {GROUPS.map((g) => {
        const rows = shown.filter((p) => groupOf(origins.get(p.probe.id), p) === g.key);
        if (rows.length === 0) return null;
        return (
          <section key={g.key} aria-labelledby={`g-${g.key}`}>
            <h2 id={`g-${g.key}`} className="text-sm font-semibold tracking-wide text-slate-700 uppercase">
              {g.title}{" "}
              <span className="font-normal text-slate-500 normal-case">
                ({rows.length}) · {g.note}
              </span>
            </h2>
            <div className="mt-2 overflow-x-auto rounded-lg border border-slate-200 bg-white">
              <table
                className="w-full table-fixed text-sm"
                data-testid={g.key === "builtin" ? "probe-list" : `probe-list-${g.key}`}
              >
                <thead className="border-b border-slate-200 bg-slate-50 text-left text-xs text-slate-600">
                  <tr>
                    <th className="w-[40%] px-3 py-2 font-medium">Probe</th>
                    <th className="w-[28%] px-3 py-2 font-medium">Tool</th>
                    <th className="w-[18%] px-3 py-2 font-medium">Probed fields</th>
                    <th className="w-[6%] px-3 py-2 text-right font-medium">Version</th>
                    <th className="w-[8%] px-3 py-2 text-right font-medium">Traces</th>
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
                          className="font-mono font-medium [overflow-wrap:anywhere] text-indigo-700 hover:underline"
                        >
                          {p.probe.id}
                        </Link>
                        {p.probe.title ? (
                          <div className="text-xs text-slate-600">{short(p.probe.title)}</div>
                        ) : null}
                      </td>
                      <td className="px-3 py-2 font-mono text-xs [overflow-wrap:anywhere]">
                        {p.probe.tool ? (
                          <>
                            {p.probe.tool.name}
                            <span className="block font-sans text-slate-500">
                              {p.probe.tool.mutating ? "mutating" : "read-only"}
                            </span>
                          </>
                        ) : (
                          <span className="font-sans text-slate-500 italic">no fitting tool</span>
                        )}
                        {p.probe.tools && p.probe.tools.length > 1 ? (
                          <span className="block font-sans text-slate-500">
                            {p.probe.tools.length} tools offered
                          </span>
                        ) : null}
                      </td>
                      <td className="px-3 py-2 font-mono text-xs [overflow-wrap:anywhere]">
                        {short(compileProbe(p.probe).fields.join(", "), 300) || "—"}
                      </td>
                      <td className="px-3 py-2 text-right font-mono text-xs">v{p.version}</td>
                      <td className="px-3 py-2 text-right tabular-nums">
                        {(counts.get(p.probe.id) ?? 0).toLocaleString("en-US")}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        );
      })}
    </div>
  );
}
