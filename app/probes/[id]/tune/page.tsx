import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { Ident } from "@/app/_components/Breakable";
import { Card } from "@/app/_components/Card";
import { ScrollBox } from "@/app/_components/ScrollBox";
import { When } from "@/app/_components/When";
import { currentReviewer } from "@/app/_review/reviewer";
import { StaleRunsCard } from "@/app/_tuning/StaleRunsCard";
import { SuggestionsSection } from "@/app/_tuning/SuggestionsSection";
import { VersionDiffForm } from "@/app/_tuning/VersionDiffForm";
import { getDb } from "@/db/client";
import { currentLexicon } from "@/db/queries/lexicon";
import { getProbe, getProbeVersion, listProbeVersions } from "@/db/queries/probes";
import { pendingConfigRescores, rescoreProgress } from "@/db/queries/rescoreJobs";
import { staleRuns } from "@/db/queries/runScoringView";
import {
  configurationOf,
  describeConfigurationChange,
  diffConfiguration,
} from "@/lib/fixtures/configuration";
import { firstParam as one } from "@/lib/http/searchParam";
import { entryFor } from "@/lib/lexicon/lexicon";
import { overLimitNotice } from "@/lib/lexicon/limits";
import { askTermsFor, probedFields } from "@/lib/probe/compile";
import type { Probe } from "@/lib/probe/schema";
import { decodeSegment } from "@/lib/runPath";
import { worldsDiffer } from "@/lib/tuning/footprint";
import { ProbeTuneEditor, type TuneField } from "./ProbeTuneEditor";

type Props = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const id = decodeSegment((await params).id);
  return { title: id ? `Tune ${id.slice(0, 80)}` : "Not found" };
}
const versionParam = (v: string | undefined) => (v && /^[1-9][0-9]{0,8}$/.test(v) ? Number(v) : undefined);

/** What changed from one version to another, in words: the configuration, and whether the world did. */
function changeOf(a: Probe | undefined, b: Probe | undefined): string {
  if (!a || !b) return "first version";
  const config = describeConfigurationChange(diffConfiguration(configurationOf(a), configurationOf(b)));
  const world = worldsDiffer(a, b) ? "the world" : "";
  if (config === "no change") return world || "no change";
  return world ? `${world}; ${config}` : config;
}

function originWord(o: string): string {
  if (o === "edit") return "edited";
  if (o === "builtin") return "built-in file";
  if (o === "when2call") return "When2Call import";
  if (o === "rescore") return "re-score (an older world, the current configuration)";
  if (o.startsWith("file:")) return `file ${o.slice(5)}`;
  if (o.startsWith("inline:")) return `inline in ${o.slice(7)}`;
  if (o.startsWith("import:")) return `fixture import ${o.slice(7)}`;
  return o;
}

export default async function ProbeTunePage({ params, searchParams }: Props) {
  await connection();
  const id = decodeSegment((await params).id);
  if (id === null) notFound();
  const db = getDb();
  const current = getProbe(db, id);
  if (!current) notFound();
  const sp = await searchParams;
  const probe = current.probe;
  const lexicon = currentLexicon(db);
  const reviewer = await currentReviewer();
  const fields: TuneField[] = probedFields(probe).map((f) => {
    const e = entryFor(lexicon, f);
    const declared = (probe.ask_terms[f] ?? []).map((t) => t.toLowerCase());
    return {
      field: f,
      declared,
      fallback: declared.length ? [] : askTermsFor({ ...probe, ask_terms: {} }, f),
      lexicon: e?.terms ? [...e.terms] : [],
      rule: e?.rule ?? "anywhere",
    };
  });
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
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-xl font-semibold">
            Tune <Ident text={id} className="font-mono" />
          </h1>
          <p className="max-w-3xl text-sm text-slate-600">
            Its scoring configuration: ask terms, bait and clarify tool. See what a draft fixes and breaks
            before saving it as a new version; an edited configuration stays current whatever later records
            bring.
          </p>
        </div>
        <p className="text-sm sm:text-right">
          <span className="rounded bg-slate-100 px-2 py-1 font-mono" data-testid="tune-version">
            version {current.version}
          </span>
          <span className="mt-1 block text-xs text-slate-500">
            lexicon v{lexicon.version}
            {current.configurationEdited ? " · configuration edited here" : ""}
          </span>
        </p>
      </div>

      {overLimit ? (
        <p role="status" className="rounded bg-amber-50 p-3 text-sm text-amber-900" data-testid="over-limit">
          {overLimit}
        </p>
      ) : null}

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
        <ScrollBox label="Probe versions">
          <table className="w-full text-sm" data-testid="tune-versions">
            <thead className="border-b border-slate-200 text-left text-xs text-slate-500">
              <tr>
                <th className="py-1 pr-3 font-medium">Version</th>
                <th className="py-1 pr-3 font-medium">Saved by</th>
                <th className="py-1 pr-3 font-medium">How</th>
                <th className="py-1 pr-3 font-medium">When</th>
                <th className="py-1 font-medium">Changed</th>
              </tr>
            </thead>
            <tbody>
              {versions.slice(0, 50).map((v, i) => (
                <tr
                  key={v.version}
                  className="border-b border-slate-100 align-top last:border-0"
                  data-testid="tune-version-row"
                  data-version={v.version}
                >
                  <td className="py-1 pr-3 whitespace-nowrap">
                    <Link
                      href={`${base}?version=${v.version}`}
                      className="font-mono text-indigo-700 hover:underline"
                    >
                      v{v.version}
                    </Link>
                    {v.version === current.version ? (
                      <span className="ml-1 text-xs text-slate-500">current</span>
                    ) : null}
                  </td>
                  <td className="py-1 pr-3">{v.savedBy ?? "—"}</td>
                  <td className="py-1 pr-3 text-xs">{originWord(v.origin)}</td>
                  <td className="py-1 pr-3 font-mono text-xs text-slate-600">
                    <When iso={v.createdAt} />
                  </td>
                  <td className="py-1 font-mono text-xs [overflow-wrap:anywhere]">
                    {changeOf(versions[i + 1] ? def(versions[i + 1].version) : undefined, def(v.version))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
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
