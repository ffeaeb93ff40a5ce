import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { Ident } from "@/app/_components/Breakable";
import { getDb } from "@/db/client";
import { listProbes } from "@/db/queries/probes";
import { probeOrigins, runsPerProbe, tracesPerProbe } from "@/db/queries/probeUsage";
import { firstParam } from "@/lib/http/searchParam";
import { groupProbes, type ProbeGroup } from "@/lib/probeGroups";
import { ProbeTable } from "./ProbeTable";

export const metadata: Metadata = { title: "Probes" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** Rows per page within a group. */
const PROBE_PAGE = 50;
/** A group this small starts open; bigger ones start collapsed (open one to page through it). */
const OPEN_UP_TO = 20;

const one = (v: string | string[] | undefined) => firstParam(v) || undefined;

const NOTES: Record<ProbeGroup["kind"], string> = {
  builtin: "shipped in fixtures/probes/",
  file: "added with assumeprobe probes add",
  run: "defined inside the run's trace records",
  inline: "defined inside trace records",
  when2call: "one probe per NVIDIA When2Call question (Apache-2.0)",
  other: "",
};

export default async function ProbesPage({ searchParams }: Props) {
  await connection();
  const sp = await searchParams;
  const q = one(sp.q)?.trim().slice(0, 200) ?? "";
  const openKey = one(sp.group);
  const after = one(sp.after);
  const db = getDb();
  const probes = listProbes(db);
  const origins = probeOrigins(db);
  const counts = tracesPerProbe(db);
  const runs = runsPerProbe(db);
  const needle = q.toLowerCase();
  const shown = needle
    ? probes.filter(
        (p) =>
          p.probe.id.toLowerCase().includes(needle) ||
          (p.probe.title ?? "").toLowerCase().includes(needle) ||
          (p.probe.tool?.name ?? "").toLowerCase().includes(needle),
      )
    : probes;
  const byId = new Map(shown.map((p) => [p.probe.id, p]));
  const groups = groupProbes(
    shown.map((p) => ({
      id: p.probe.id,
      origin: p.builtin ? "builtin" : (origins.get(p.probe.id) ?? ""),
      runs: runs.get(p.probe.id) ?? [],
    })),
  );
  const href = (params: Record<string, string>) => {
    const p = new URLSearchParams(q ? { q } : {});
    for (const [k, v] of Object.entries(params)) p.set(k, v);
    return `/probes?${p}`;
  };

  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-xl font-semibold">Probes</h1>
        <p className="mt-1 text-sm text-slate-600">
          Each probe is one closed world: what the model sees, what is true, and the tool whose call is
          scored. Every change to a probe is a new version; traces keep the version that scored them. Probes
          are grouped by where they came from.
        </p>
      </div>
      <form method="get" className="flex flex-wrap items-center gap-2">
        <label htmlFor="probe-q" className="text-sm text-slate-600">
          Find
        </label>
        <input
          id="probe-q"
          name="q"
          defaultValue={q}
          placeholder="id, title or tool"
          className="w-full max-w-72 min-w-0 flex-1 rounded border border-slate-300 bg-white px-2 py-1 text-sm"
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
            ? `${probes.length} probes in ${groups.length} group${groups.length === 1 ? "" : "s"}`
            : `${shown.length} of ${probes.length} probes`}
        </span>
      </form>
      {shown.length === 0 ? <p className="text-sm text-slate-500 italic">No probe matches.</p> : null}
      {groups.map((g) => {
        const ids = g.probes;
        // Keyset pages by probe id within the group (ids are sorted).
        const here = g.key === openKey && after ? ids.findIndex((id) => id > after) : 0;
        const start = here < 0 ? Math.max(0, ids.length - PROBE_PAGE) : here;
        const pageIds = ids.slice(start, start + PROBE_PAGE);
        const rows = pageIds.map((id) => byId.get(id)).filter((p) => p !== undefined);
        const open =
          g.key === openKey || ids.length <= OPEN_UP_TO || (needle !== "" && ids.length <= PROBE_PAGE);
        const prevStart = Math.max(0, start - PROBE_PAGE);
        const anchor = `group-${g.key.replace(/[^A-Za-z0-9_-]+/g, "-")}`;
        return (
          <details
            key={g.key}
            id={anchor}
            open={open}
            className="group rounded-lg"
            data-testid="probe-group"
            data-key={g.key}
            data-kind={g.kind}
          >
            <summary className="cursor-pointer list-none text-sm font-semibold tracking-wide text-slate-700 uppercase [&::-webkit-details-marker]:hidden">
              <span
                aria-hidden="true"
                className="mr-1 inline-block transition-transform group-open:rotate-90"
              >
                ▸
              </span>
              <Ident text={g.label} className="normal-case" />{" "}
              <span className="font-normal text-slate-500 normal-case" data-testid="group-count">
                ({ids.length.toLocaleString("en-US")} probe{ids.length === 1 ? "" : "s"})
                {NOTES[g.kind] ? ` · ${NOTES[g.kind]}` : ""}
              </span>
            </summary>
            <div className="mt-2 space-y-2">
              <ProbeTable
                rows={rows}
                counts={counts}
                testId={g.kind === "builtin" ? "probe-list" : `probe-list-${g.kind}`}
              />
              {ids.length > PROBE_PAGE ? (
                <nav
                  className="flex flex-wrap items-center justify-end gap-2 text-sm"
                  aria-label={`Pages of ${g.label}`}
                >
                  <span className="text-slate-600 tabular-nums" data-testid="group-position">
                    {(start + 1).toLocaleString("en-US")}–{(start + rows.length).toLocaleString("en-US")} of{" "}
                    {ids.length.toLocaleString("en-US")}
                  </span>
                  {start > 0 ? (
                    <Link
                      href={
                        prevStart === 0
                          ? `${href({ group: g.key })}#${anchor}`
                          : `${href({ group: g.key, after: ids[prevStart - 1] })}#${anchor}`
                      }
                      className="rounded border border-slate-300 bg-white px-2.5 py-1 hover:bg-slate-50"
                      data-testid="group-prev"
                    >
                      ← Previous
                    </Link>
                  ) : null}
                  {start + PROBE_PAGE < ids.length ? (
                    <Link
                      href={`${href({ group: g.key, after: pageIds[pageIds.length - 1] })}#${anchor}`}
                      className="rounded border border-slate-300 bg-white px-2.5 py-1 hover:bg-slate-50"
                      data-testid="group-next"
                    >
                      Next {Math.min(PROBE_PAGE, ids.length - start - PROBE_PAGE)} →
                    </Link>
                  ) : null}
                </nav>
              ) : null}
            </div>
          </details>
        );
      })}
    </div>
  );
}
