/**
 * Probes grouped by where they came from, so a list of every probe (a filter, the probes page,
 * an agreement line) shows a few groups instead of one entry per inline probe: a When2Call run
 * alone defines 300 probes.
 */

/** One probe, where it came from, and the runs it was scored in. */
export interface ProbeOrigin {
  id: string;
  /**
   * The origin of the probe's first version (`probe_versions.origin`): `builtin`, `file:NAME`
   * (`assumeprobe probes add`), `inline:SOURCE` (defined inside a trace record of that source),
   * `when2call` (converted from a When2Call record). Any other value is a group of its own.
   */
  origin: string;
  /** Names of the runs that hold traces of this probe (any order; may be empty). */
  runs: readonly string[];
}

export type ProbeGroupKind = "builtin" | "file" | "run" | "inline" | "when2call" | "other";

export interface ProbeGroup {
  /**
   * Stable across requests, for URLs and React keys: `builtin`, `file:NAME`, `run:RUN`,
   * `inline:SOURCE`, `when2call` or `origin:ORIGIN`.
   */
  key: string;
  /** What a person reads: "Built-in", "From file probes.json", "Inline · nightly-3", … */
  label: string;
  kind: ProbeGroupKind;
  /** The group's probe ids, sorted. */
  probes: string[];
  /** Every run holding traces of a probe of the group, sorted. */
  runs: string[];
}

const KIND_ORDER: ProbeGroupKind[] = ["builtin", "file", "run", "inline", "when2call", "other"];

/**
 * Groups probes by where they came from. Built-in probes form one group and probe files one
 * group each. Probes defined inline (`inline:SOURCE`, `when2call`) belong to the run they were
 * scored in, when that is exactly one run: `run:RUN`, labelled by what defined them ("When2Call ·
 * RUN", "Inline · RUN"). Inline probes seen in several runs, or in none, are grouped by their
 * source (`inline:SOURCE`, `when2call`). Groups come built-in first, then files, runs, inline
 * sources, When2Call and other origins, each kind by key; every probe is in exactly one group.
 */
export function groupProbes(probes: readonly ProbeOrigin[]): ProbeGroup[] {
  const groups = new Map<string, { g: ProbeGroup; w2c: number; inline: number }>();
  const add = (key: string, kind: ProbeGroupKind, label: string, p: ProbeOrigin) => {
    let e = groups.get(key);
    if (!e) {
      e = { g: { key, label, kind, probes: [], runs: [] }, w2c: 0, inline: 0 };
      groups.set(key, e);
    }
    e.g.probes.push(p.id);
    for (const r of p.runs) e.g.runs.push(r);
    if (p.origin === "when2call") e.w2c++;
    else e.inline++;
  };
  for (const p of probes) {
    const o = p.origin;
    const runs = [...new Set(p.runs)];
    if (o === "builtin") add("builtin", "builtin", "Built-in", p);
    else if (o.startsWith("file:")) add(o, "file", `From file ${o.slice(5)}`, p);
    else if ((o === "when2call" || o.startsWith("inline:")) && runs.length === 1)
      add(`run:${runs[0]}`, "run", runs[0], p);
    else if (o === "when2call") add("when2call", "when2call", "When2Call", p);
    else if (o.startsWith("inline:")) add(o, "inline", `Inline in ${o.slice(7)}`, p);
    else add(`origin:${o}`, "other", o === "" ? "Unknown origin" : `Origin ${o}`, p);
  }
  const out: ProbeGroup[] = [];
  for (const { g, w2c, inline } of groups.values()) {
    g.probes.sort();
    g.runs = [...new Set(g.runs)].sort();
    if (g.kind === "run") {
      const what = w2c && inline ? "Inline and When2Call" : w2c ? "When2Call" : "Inline";
      g.label = `${what} · run ${g.label}`;
    }
    out.push(g);
  }
  return out.sort(
    (a, b) =>
      KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
}

/** The group holding a probe, if any. */
export function groupOfProbe(groups: readonly ProbeGroup[], probeId: string): ProbeGroup | undefined {
  return groups.find((g) => g.probes.includes(probeId));
}
