import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { Card } from "@/app/_components/Card";
import { When } from "@/app/_components/When";
import { currentReviewer } from "@/app/_review/reviewer";
import { StaleRunsCard } from "@/app/_tuning/StaleRunsCard";
import { SuggestionsSection } from "@/app/_tuning/SuggestionsSection";
import { TuningHeader } from "@/app/_tuning/TuningHeader";
import { VersionDiffForm } from "@/app/_tuning/VersionDiffForm";
import { VersionTable } from "@/app/_tuning/VersionTable";
import { getDb } from "@/db/client";
import { currentLexicon, lexiconAt, listLexiconVersions } from "@/db/queries/lexicon";
import { pendingConfigRescores, rescoreProgress } from "@/db/queries/rescore/jobs";
import { staleRuns } from "@/db/queries/runScoringView";
import { probedFieldNames } from "@/db/queries/tuneRuns";
import { firstParam as one } from "@/lib/http/searchParam";
import { diffEntries, type EntryChange, entryTerms, type LexiconEntry } from "@/lib/lexicon/lexicon";
import { overLimitNotice } from "@/lib/lexicon/limits";
import { LexiconEditor } from "./LexiconEditor";

export const metadata: Metadata = { title: "Lexicon" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };
const versionParam = (v: string | undefined) =>
  v && /^(0|[1-9][0-9]{0,8})$/.test(v) ? Number(v) : undefined;

export default async function LexiconPage({ searchParams }: Props) {
  await connection();
  const sp = await searchParams;
  const db = getDb();
  const lexicon = currentLexicon(db);
  const versions = listLexiconVersions(db);
  const reviewer = await currentReviewer();
  const stale = staleRuns(db);
  const running = rescoreProgress(db, pendingConfigRescores(db));
  const to = versionParam(one(sp.to)) ?? lexicon.version;
  const from = versionParam(one(sp.from)) ?? Math.max(0, to - 1);
  const diffFrom = lexiconAt(db, from);
  const diffTo = lexiconAt(db, to);
  const diff = diffFrom && diffTo ? diffEntries(diffFrom.entries, diffTo.entries) : null;
  const latest = versions[0];
  const overLimit = overLimitNotice(entryTerms(lexicon.entries), "The saved lexicon");

  return (
    <div className="space-y-4" data-testid="lexicon-page" data-version={lexicon.version}>
      <TuningHeader
        title="Shared lexicon"
        intro="Ask terms per field name that count in every probe that probes a field of that name, beside the probe's own, and each field's ask rule. Change a draft, see what it fixes and breaks, save it as a new version, re-score."
        version={lexicon.version}
        versionTestId="lexicon-version"
        about={
          latest ? (
            <>
              saved by {latest.savedBy} · <When iso={latest.createdAt} />
            </>
          ) : (
            "empty: nothing saved yet"
          )
        }
        overLimit={overLimit}
      />

      <LexiconEditor
        version={lexicon.version}
        saved={lexicon.entries as Record<string, LexiconEntry>}
        fieldNames={probedFieldNames(db)}
        reviewer={reviewer}
      >
        <StaleRunsCard
          stale={stale}
          scope={{ kind: "stale" }}
          reviewer={reviewer}
          running={running}
          upToDate="Every run is scored with the current configuration."
        >
          <p className="mt-2 text-xs text-slate-500">
            Only the traces whose result changes are rewritten, with their filter tags and the run's counts,
            in short batches in the background; a stopped re-score resumes. Each run's page lists its
            re-scores.
          </p>
        </StaleRunsCard>
        <SuggestionsSection target={{ kind: "lexicon" }} />
      </LexiconEditor>

      <Card title="Versions">
        {versions.length === 0 ? (
          <p className="text-sm text-slate-500 italic">
            No version saved yet: version 0 is the empty lexicon.
          </p>
        ) : (
          <VersionTable
            label="Lexicon versions"
            testId="lexicon-versions"
            rowTestId="lexicon-version-row"
            columns={[
              { title: "Fields · terms", className: "tabular-nums" },
              { title: "Diff", className: "text-xs" },
            ]}
            current={lexicon.version}
            rows={versions.map((v) => ({
              ...v,
              cells: [
                `${v.fields} · ${v.terms}`,
                <Link
                  key="diff"
                  href={`/lexicon?from=${v.version - 1}&to=${v.version}#diff`}
                  className="text-indigo-700 hover:underline"
                >
                  vs v{v.version - 1}
                </Link>,
              ],
            }))}
          />
        )}
        {versions.length === 0 ? null : (
          <>
            <VersionDiffForm action="/lexicon" min={0} max={lexicon.version} from={from} to={to} />
            <Diff from={from} to={to} changes={diff} />
          </>
        )}
      </Card>
    </div>
  );
}

/** Terms shown per field and side of a diff: a version of thousands of terms stays a page. */
const DIFF_SHOWN = 60;

function Diff({ from, to, changes }: { from: number; to: number; changes: EntryChange[] | null }) {
  if (changes === null)
    return <p className="mt-2 text-sm text-amber-800">There is no such version to compare.</p>;
  return (
    <div className="mt-2" data-testid="lexicon-diff" data-from={from} data-to={to}>
      <h3 className="text-xs font-medium text-slate-500">
        v{from} → v{to}
      </h3>
      {changes.length === 0 ? (
        <p className="text-sm text-slate-600">No difference.</p>
      ) : (
        <ul className="mt-1 space-y-1 text-sm">
          {changes.map((c) => (
            <li
              key={c.field}
              data-testid="diff-field"
              data-field={c.field}
              className="flex flex-wrap items-center gap-1"
            >
              <span className="font-mono font-semibold">{c.field}</span>
              {c.added.slice(0, DIFF_SHOWN).map((t) => (
                <span
                  key={`+${t}`}
                  className="rounded bg-emerald-50 px-1 font-mono text-xs text-emerald-900 ring-1 ring-emerald-200"
                >
                  + {t}
                </span>
              ))}
              {c.removed.slice(0, DIFF_SHOWN).map((t) => (
                <span
                  key={`-${t}`}
                  className="rounded bg-red-50 px-1 font-mono text-xs text-red-900 line-through ring-1 ring-red-200"
                >
                  − {t}
                </span>
              ))}
              {c.added.length > DIFF_SHOWN || c.removed.length > DIFF_SHOWN ? (
                <span className="text-xs text-slate-600" data-testid="diff-more">
                  {c.added.length.toLocaleString("en-US")} added, {c.removed.length.toLocaleString("en-US")}{" "}
                  removed in all
                </span>
              ) : null}
              {c.rule ? (
                <span className="text-xs text-slate-700">
                  rule {c.rule[0]} → {c.rule[1]}
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
