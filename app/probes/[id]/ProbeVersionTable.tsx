import { VersionTable } from "@/app/_tuning/VersionTable";
import type { Db } from "@/db/client";
import { getProbeVersion, type ProbeVersionRow, type StoredProbe } from "@/db/queries/probes";
import type { Probe } from "@/lib/probe/schema";

/** Versions whose definitions are read to say what changed: a row compares its own with the one before. */
const COMPARED = 50;

/**
 * A probe's versions as its page and its tune page list them, each linked to the probe page at that
 * version, with what changed from the one before in the page's words (the newest 50; "—" past them).
 */
export function ProbeVersionTable({
  db,
  id,
  current,
  versions,
  viewing,
  changed,
  label,
  testId,
  rowTestId,
}: {
  db: Db;
  id: string;
  current: StoredProbe;
  /** Newest first. */
  versions: ProbeVersionRow[];
  viewing?: number;
  /** What changed from `before` (none: the first version) to `def`, in words. */
  changed: (def: Probe, before: Probe | undefined) => string;
  label: string;
  testId: string;
  rowTestId: string;
}) {
  // Each definition read once.
  const defs = versions
    .slice(0, COMPARED + 1)
    .map((v) => (v.version === current.version ? current.probe : getProbeVersion(db, id, v.version)));
  return (
    <VersionTable
      label={label}
      testId={testId}
      rowTestId={rowTestId}
      columns={[{ title: "Changed", className: "font-mono text-xs [overflow-wrap:anywhere]" }]}
      current={current.version}
      viewing={viewing}
      href={(v) => `/probes/${encodeURIComponent(id)}?version=${v}`}
      rows={versions.map((v, i) => {
        const def = i < COMPARED ? defs[i] : undefined;
        return { ...v, cells: [def ? changed(def, defs[i + 1]) : "—"] };
      })}
    />
  );
}
