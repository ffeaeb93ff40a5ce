import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { breakable, Ident } from "@/app/_components/Breakable";
import { Card } from "@/app/_components/Card";
import { CardTableHead } from "@/app/_components/CardTableHead";
import { FactsTable } from "@/app/_components/FactsTable";
import { SafeJsonBlock } from "@/app/_components/SafeJsonBlock";
import { ScrollBox } from "@/app/_components/ScrollBox";
import { ToolSchema } from "@/app/_components/ToolSchema";
import { When } from "@/app/_components/When";
import { WorldPanels } from "@/app/_components/WorldPanels";
import { versionOrigin } from "@/app/_tuning/VersionTable";
import { currentLexicon } from "@/db/queries/lexicon";
import { getProbeVersion, listProbeVersions } from "@/db/queries/probes";
import { probeRuns } from "@/db/queries/probeUsage";
import { compileProbe } from "@/lib/probe/compile";
import { type Probe, type SchemaRole, schemaRole, toolParameters } from "@/lib/probe/schema";
import { runHref } from "@/lib/runPath";
import { ProbeVersionTable } from "./ProbeVersionTable";
import { type ProbeRouteProps, probeOfRoute, probeTitle } from "./probeRoute";

export const generateMetadata = probeTitle("Probe");

/** The parts of a probe that differ between two versions, in words. */
function changes(a: Probe, b: Probe | undefined): string[] {
  if (!b) return ["first version"];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  const out: string[] = [];
  for (const k of keys) {
    if (
      JSON.stringify((a as Record<string, unknown>)[k]) !== JSON.stringify((b as Record<string, unknown>)[k])
    )
      out.push(k);
  }
  return out.length ? out : ["no visible change"];
}

/** Parts of probes come from trace files (inline probes): cap what one value can occupy. */
function short(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

const SCHEMA_ROLE_WORDS: Record<SchemaRole, string> = {
  required: "required",
  optional: "optional",
  not_in_schema: "not in schema",
};

export default async function ProbePage(props: ProbeRouteProps) {
  await connection();
  const { id, db, current } = await probeOfRoute(props);
  const sp = await props.searchParams;
  const rawVersion = Array.isArray(sp.version) ? sp.version[0] : sp.version;
  let version = current.version;
  if (rawVersion !== undefined && rawVersion !== "") {
    if (!/^[1-9][0-9]{0,8}$/.test(rawVersion)) notFound();
    version = Number(rawVersion);
  }
  const probe = version === current.version ? current.probe : getProbeVersion(db, id, version);
  if (!probe) notFound();
  const c = compileProbe(probe, currentLexicon(db));
  const versions = listProbeVersions(db, id);
  const thisVersion = versions.find((v) => v.version === version);
  const runs = probeRuns(db, id);
  const base = `/probes/${encodeURIComponent(id)}`;
  const declaredFacts = probe.facts !== undefined;
  const toolParams = toolParameters(probe.tool);
  const others = probe.tools?.filter((t) => t.name !== probe.tool?.name) ?? [];

  return (
    <div className="space-y-4" data-testid="probe-page" data-version={version}>
      <nav aria-label="Breadcrumb" className="text-sm text-slate-600">
        <Link href="/probes" className="hover:underline">
          Probes
        </Link>
        <span aria-hidden="true"> › </span>
        <Ident text={id} className="font-mono" />
      </nav>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="font-mono text-xl font-semibold" data-testid="probe-id">
            <Ident text={probe.id} />
          </h1>
          {probe.title ? <p className="text-slate-600">{breakable(short(probe.title, 500))}</p> : null}
        </div>
        <div className="text-sm sm:text-right">
          <span className="rounded bg-slate-100 px-2 py-1 font-mono" data-testid="probe-version">
            version {version}
          </span>
          <span className="ml-2 text-slate-600">
            of {current.version}
            {current.builtin ? " · built-in" : ""}
          </span>
          {thisVersion ? (
            <div className="mt-1 text-xs text-slate-500">
              {versionOrigin(thisVersion.origin)}
              {thisVersion.savedBy ? ` by ${thisVersion.savedBy}` : ""} · <When iso={thisVersion.createdAt} />
            </div>
          ) : null}
          <Link
            href={`${base}/tune`}
            className="mt-2 inline-block rounded border border-slate-300 bg-white px-2.5 py-1 text-sm text-slate-700 hover:bg-slate-50"
            data-testid="tune-link"
          >
            Tune its scoring…
          </Link>
        </div>
      </div>
      {version !== current.version ? (
        <p
          className="rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
          role="note"
          data-testid="old-version"
        >
          <span aria-hidden="true">⚠ </span>You are viewing version {version}, not the current one.{" "}
          <Link href={base} className="font-medium underline">
            View the current version {current.version}
          </Link>
          .
        </p>
      ) : null}

      <WorldPanels probe={probe} systemOpen />

      <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <Card title="Tool">
          {probe.tool ? (
            <ToolSchema tool={probe.tool} probed={c.fields} requires={probe.requires} />
          ) : (
            <p className="text-sm text-slate-600" data-testid="tool-schema">
              No tool fits this world: the right answer is to say so, not to call.
            </p>
          )}
          {others.length > 0 ? (
            <details className="mt-3 text-sm" data-testid="other-tools">
              <summary className="cursor-pointer text-xs font-medium text-slate-500 uppercase">
                Other tools offered ({others.length})
              </summary>
              <div className="mt-2 space-y-3">
                {others.map((t) => (
                  <ToolSchema key={t.name} tool={t} testId="other-tool" />
                ))}
              </div>
            </details>
          ) : null}
        </Card>
        <Card title="Scoring">
          <h3 className="text-xs font-medium text-slate-500 uppercase">Probed fields and their ask terms</h3>
          {c.fields.length === 0 ? (
            <p className="text-sm text-slate-500 italic">No probed fields.</p>
          ) : (
            <ScrollBox label="Probed fields">
              <table className="mt-1 w-full text-sm" data-testid="probed-fields">
                <CardTableHead columns={["Field", "Schema says", "Ask terms"]} />
                <tbody>
                  {c.fields.map((f) => {
                    const declared = (probe.ask_terms[f]?.length ?? 0) > 0;
                    return (
                      <tr
                        key={f}
                        className="border-b border-slate-100 align-top last:border-0"
                        data-testid="probed-field"
                        data-field={f}
                      >
                        <th scope="row" className="py-1 pr-3 text-left font-mono font-normal">
                          <Ident text={f} />
                        </th>
                        <td className="py-1 pr-3 text-xs">{SCHEMA_ROLE_WORDS[schemaRole(toolParams, f)]}</td>
                        <td className="py-1 text-sm" data-testid="ask-terms">
                          {breakable(short(c.askTerms[f].map((t) => `“${t}”`).join(", "), 2000))}
                          {!declared ? (
                            <span className="ml-1 text-xs text-slate-500">(default: the field's name)</span>
                          ) : null}
                          {c.ask[f].lexiconTerms.length > 0 || c.ask[f].rule !== "anywhere" ? (
                            <div className="mt-0.5 text-xs text-slate-600" data-testid="lexicon-terms">
                              <Link href="/lexicon" className="text-indigo-700 hover:underline">
                                lexicon
                              </Link>
                              :{" "}
                              {breakable(
                                short(c.ask[f].lexiconTerms.map((t) => `“${t}”`).join(", "), 1000),
                              ) || "no terms"}
                              {c.ask[f].rule === "question" ? " · terms count only inside a question" : ""}
                            </div>
                          ) : null}
                          {c.ask[f].anyTerms.length > 0 ? (
                            <div className="mt-0.5 text-xs text-slate-600" data-testid="lexicon-any-terms">
                              <Link href="/lexicon" className="text-indigo-700 hover:underline">
                                lexicon
                              </Link>{" "}
                              <span className="font-mono">*</span> (every field):{" "}
                              {breakable(short(c.ask[f].anyTerms.map((t) => `“${t}”`).join(", "), 1000))}
                              {c.ask[f].anyRule === "question" ? " · only inside a question" : ""}
                            </div>
                          ) : null}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </ScrollBox>
          )}
          <p className="mt-2 text-xs text-slate-500">
            {probe.fields
              ? "Fields as declared."
              : "Fields by default: the tool's properties absent from the redacted state."}{" "}
            With no call, a field is ASK when the lower-cased reply contains one of its terms, else DRIFT.
          </p>
          <h3 className="mt-3 text-xs font-medium text-slate-500 uppercase">Bait</h3>
          <p className="mt-1 flex flex-wrap gap-1" data-testid="bait">
            {probe.bait.length === 0 ? <span className="text-sm text-slate-500 italic">none</span> : null}
            {probe.bait.map((b) => (
              <span
                key={b}
                className="rounded bg-orange-50 px-1.5 py-0.5 font-mono text-xs text-orange-900 ring-1 ring-orange-600/40 ring-inset"
              >
                <span aria-hidden="true">⚑ </span>
                {breakable(short(b, 200))}
              </span>
            ))}
          </p>
          {probe.clarify_tool ? (
            <>
              <h3 className="mt-3 text-xs font-medium text-slate-500 uppercase">Clarify tool</h3>
              <p className="font-mono text-sm">
                <Ident text={probe.clarify_tool} />
              </p>
              <p className="text-xs text-slate-500">
                A call to it is an ASK for the fields it names (all when it names none).
              </p>
            </>
          ) : null}
        </Card>
      </div>

      <Card title="Gate">
        <p className="text-sm" data-testid="gate-requires">
          <span className="text-slate-500">Requires before the side effect:</span>{" "}
          <Ident text={probe.requires.join(", ") || "nothing"} className="font-mono" />
        </p>
        <p className="mt-1 text-xs text-slate-500">
          {declaredFacts
            ? "Facts as the probe declares them. A trace's own world_state overrides them key by key."
            : "Facts by default: known for each redacted key, unknown for anything else required."}
        </p>
        <div className="mt-2">
          <FactsTable
            facts={c.facts}
            requires={probe.requires}
            origin={() => (declaredFacts ? "declared" : "default")}
            testId="probe-facts"
            hypothetical
          />
        </div>
      </Card>

      <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <Card title="Versions">
          <ProbeVersionTable
            db={db}
            id={id}
            current={current}
            versions={versions}
            viewing={version}
            changed={(def, before) => changes(def, before).join(", ")}
            label="Versions"
            testId="versions"
            rowTestId="version-row"
          />
        </Card>
        <Card title="Runs with traces of this probe">
          {runs.length === 0 ? (
            <p className="text-sm text-slate-500 italic">None yet.</p>
          ) : (
            <ul className="space-y-1 text-sm" data-testid="probe-runs">
              {runs.map((r) => (
                <li key={r.run} className="flex justify-between gap-3">
                  <Link
                    href={runHref(r.run, new URLSearchParams({ probe: id }))}
                    className="min-w-0 font-mono text-indigo-700 hover:underline"
                  >
                    <Ident text={r.run} />
                  </Link>
                  <span className="shrink-0 tabular-nums text-slate-600">
                    {r.traces.toLocaleString("en-US")} traces
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>

      <details className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
        <summary className="cursor-pointer font-medium text-slate-700">Definition as stored (JSON)</summary>
        <div className="mt-2">
          <SafeJsonBlock value={probe} testId="probe-json" />
        </div>
      </details>
    </div>
  );
}
