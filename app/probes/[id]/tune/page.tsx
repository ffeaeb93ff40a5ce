import Link from "next/link";
import { connection } from "next/server";
import { Ident } from "@/app/_components/Breakable";
import { Card } from "@/app/_components/Card";
import { currentReviewer } from "@/app/_review/reviewer";
import { StaleRunsCard } from "@/app/_tuning/StaleRunsCard";
import { SuggestionsSection } from "@/app/_tuning/SuggestionsSection";
import { TuningHeader } from "@/app/_tuning/TuningHeader";
import { VersionDiffForm } from "@/app/_tuning/VersionDiffForm";
import { currentLexicon } from "@/db/queries/lexicon";
import { getProbeVersion, listProbeVersions } from "@/db/queries/probes";
import { pendingConfigRescores, rescoreProgress } from "@/db/queries/rescore/jobs";
import { staleRuns } from "@/db/queries/runScoringView";
import {
  configurationOf,
  describeConfigurationChange,
  diffConfiguration,
} from "@/lib/fixtures/configuration";
import { firstParam as one } from "@/lib/http/searchParam";
import { overLimitNotice } from "@/lib/lexicon/limits";
import type { Probe } from "@/lib/probe/schema";
import { worldsDiffer } from "@/lib/tuning/footprint";
import { tuneFields } from "@/lib/tuning/tuneFields";
import { ProbeVersionTable } from "../ProbeVersionTable";
import { type ProbeRouteProps, probeOfRoute, probeTitle } from "../probeRoute";
import { ProbeTuneEditor } from "./ProbeTuneEditor";

export const generateMetadata = probeTitle("Tune");
const versionParam = (v: string | undefined) => (v && /^[1-9][0-9]{0,8}$/.test(v) ? Number(v) : undefined);

/** What changed from one version to another, in words: the configuration, and whether the world did. */
function changeOf(a: Probe | undefined, b: Probe | undefined): string {
  if (!a || !b) return "first version";
  const config = describeConfigurationChange(diffConfiguration(configurationOf(a), configurationOf(b)));
  const world = worldsDiffer(a, b) ? "the world" : "";
  if (config === "no change") return world || "no change";
  return world ? `${world}; ${config}` : config;
}

export default async function ProbeTunePage(props: ProbeRouteProps) {
  await connection();
  const { id, db, current } = await probeOfRoute(props);
  const sp = await props.searchParams;
  const probe = current.probe;
  const lexicon = currentLexicon(db);
  const reviewer = await currentReviewer();
  const fields = tuneFields(probe, lexicon);
  const toolNames = [
    ...new Set([
      ...(probe.tools ?? []).map((t) => t.name),
      ...(probe.clarify_tool ? [probe.clarify_tool] : []),
    ]),
  ]
    .filter((n) => n !== probe.tool?.name)
    .slice(0, 200);
  const versions = listProbeVersions(db, id);
  const defs = new Map<number, Probe | undefined>();
  const def = (v: number) => {
    if (!defs.has(v)) defs.set(v, v === current.version ? probe : getProbeVersion(db, id, v));
    return defs.get(v);
  };
  const to = versionParam(one(sp.to)) ?? current.version;
  const from = versionParam(one(sp.from)) ?? Math.max(1, to - 1);
  const a = def(from);
  const b = def(to);
  const stale = staleRuns(db, id);
  const running = rescoreProgress(db, pendingConfigRescores(db));
  const base = `/probes/${encodeURIComponent(id)}`;
  const overLimit = overLimitNotice(probe.ask_terms, "This probe's own terms");

  return (
    <div className="space-y-4" data-testid="tune-page" data-version={current.version}>
      <nav aria-label="Breadcrumb" className="text-sm text-slate-600">
        <Link href="/probes" className="hover:underline">
          Probes
        </Link>
        <span aria-hidden="true"> › </span>
        <Link href={base} className="font-mono hover:underline">
          <Ident text={id} />
        </Link>
        <span aria-hidden="true"> › </span>
        tune
      </nav>
      <TuningHeader
        title={
          <>
            Tune <Ident text={id} className="font-mono" />
          </>
        }
        intro="Its scoring configuration: ask terms, bait and clarify tool. See what a draft fixes and breaks before saving it as a new version; an edited configuration stays current whatever later records bring."
        version={current.version}
        versionTestId="tune-version"
        about={`lexicon v${lexicon.version}${current.configurationEdited ? " · configuration edited here" : ""}`}
        overLimit={overLimit}
      />

      <ProbeTuneEditor
        probe={id}
        version={current.version}
        saved={configurationOf(probe)}
        fields={fields}
        toolNames={toolNames}
        reviewer={reviewer}
      >
        <StaleRunsCard
          stale={stale}
          scope={{ kind: "stale", probe: id }}
          reviewer={reviewer}
          running={running}
          upToDate="Every run of this probe is scored with the current configuration."
        />
        <SuggestionsSection target={{ kind: "probe", probe: id }} />
      </ProbeTuneEditor>

      <Card title="Versions">
        <ProbeVersionTable
          db={db}
          id={id}
          current={current}
          versions={versions}
          changed={(def, before) => changeOf(before, def)}
          label="Probe versions"
          testId="tune-versions"
          rowTestId="tune-version-row"
        />
        {versions.length < 2 ? null : (
          <>
            <VersionDiffForm min={1} max={versions[0]?.version ?? 1} from={from} to={to} />
            <div className="mt-2 text-sm" data-testid="tune-diff" data-from={from} data-to={to}>
              {a && b ? (
                <p>
                  <span className="font-mono">
                    v{from} → v{to}
                  </span>
                  : <span className="font-mono [overflow-wrap:anywhere]">{changeOf(a, b)}</span>
                </p>
              ) : (
                <p className="text-amber-800">There is no such version to compare.</p>
              )}
            </div>
          </>
        )}
      </Card>
    </div>
  );
}
