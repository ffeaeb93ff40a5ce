import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { Card } from "@/app/_components/Card";
import { getDb } from "@/db/client";
import { agreementCounts, modelsWithRuns, probesWithRuns } from "@/db/queries/agreement";
import { hasBlindReviews, interRaterOf, roundNames } from "@/db/queries/interRater";
import { backfillPending } from "@/db/queries/tagBackfill";
import { groupProbes } from "@/lib/probeGroups";
import {
  agreementByGroup,
  agreementByModel,
  agreementByProbeField,
  type LabelledCount,
  summarize,
} from "@/lib/review/agreementView";
import { sharePct } from "@/lib/stats";
import { BetweenReviewers } from "./BetweenReviewers";
import { AgreeText, ConfusionTable, KappaText } from "./ConfusionTable";
import { type AgreementScope, AgreementScopeForm, cellLinker, parseAgreementScope } from "./scope";

export const metadata: Metadata = { title: "Agreement" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const SLICE_ROWS = 12;

export default async function AgreementPage({ searchParams }: Props) {
  await connection();
  const scope = parseAgreementScope(await searchParams);
  const db = getDb();
  const groups = groupProbes(probesWithRuns(db));
  const all = agreementCounts(db, { model: scope.model, run: scope.run });
  const runs = db.sqlite.prepare("SELECT name FROM runs ORDER BY id DESC").pluck().all() as string[];
  const unknownRun = scope.run !== undefined && !runs.includes(scope.run);
  const group = scope.group ? groups.find((g) => g.key === scope.group) : undefined;
  const counts = group ? all.filter((c) => group.probes.includes(c.probeId)) : all;
  const byGroup = agreementByGroup(counts, groups);
  const focus =
    scope.probe && scope.field
      ? counts.filter((c) => c.probeId === scope.probe && c.field === scope.field)
      : null;
  const rounds = roundNames(db);
  const between = interRaterOf(db, {
    run: scope.run,
    model: scope.model,
    probe: focus ? scope.probe : undefined,
    field: focus ? scope.field : undefined,
    probes: group?.probes,
    round: scope.round,
  });
  const scoped = Boolean(scope.model || scope.run || group || focus || scope.round);

  return (
    <div className="space-y-4" data-testid="agreement-page">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="max-w-3xl">
          <h1 className="text-xl font-semibold">Agreement with reviewers</h1>
          <p className="text-sm text-slate-600">
            Reviewers against each other (their first blind reviews), then our label against the human one (a
            field's current review, else its imported label), over every field that has one. Reviews that
            confirm ours count as much as those that correct it.
          </p>
        </div>
        <AgreementScopeForm
          scope={scope}
          models={modelsWithRuns(db)}
          runs={runs}
          rounds={rounds}
          groups={groups.filter((g) => all.some((c) => g.probes.includes(c.probeId)))}
        />
      </div>
      {unknownRun ? (
        <p role="alert" className="rounded bg-amber-50 p-2 text-sm text-amber-900" data-testid="unknown-run">
          There is no run named <span className="font-mono break-all">{scope.run}</span>.
        </p>
      ) : null}
      {backfillPending(db) ? (
        <p
          role="status"
          className="rounded bg-amber-50 p-2 text-sm text-amber-900"
          data-testid="backfill-pending"
        >
          Traces stored before these counts existed are not counted yet: run <code>assumeprobe setup</code>{" "}
          (npm start does) to add them.
        </p>
      ) : null}
      <BetweenReviewers figures={between} any={between.fields > 0 || hasBlindReviews(db)} scoped={scoped} />
      {counts.length === 0 ? (
        <div
          className="space-y-2 rounded-lg border border-dashed border-slate-300 bg-white p-6"
          data-testid="agreement-empty"
        >
          <h2 className="text-base font-semibold">
            No field has a human label {scope.model || scope.run || group ? "in this scope" : "yet"}
          </h2>
          <p className="text-sm text-slate-600">
            Agreement needs human labels: review fields in the{" "}
            <Link href="/review" className="text-indigo-700 underline">
              review queue
            </Link>
            , or ingest records that carry <code>human</code> labels (the When2Call calibration set does).
          </p>
          {scope.model || scope.run || group ? (
            <Link href="/agreement" className="text-sm text-indigo-700 underline">
              Agreement over everything
            </Link>
          ) : null}
        </div>
      ) : null}
      {focus ? <FocusCard counts={focus} scope={scope} /> : null}
      {byGroup.map((g) => (
        <GroupCard
          key={g.group.key}
          label={g.group.label}
          groupKey={g.group.key}
          counts={g.counts}
          scope={scope}
          all={Boolean(group)}
        />
      ))}
    </div>
  );
}

function GroupCard({
  label,
  groupKey,
  counts,
  scope,
  all,
}: {
  label: string;
  groupKey: string;
  counts: LabelledCount[];
  scope: AgreementScope;
  all: boolean;
}) {
  const s = summarize(counts);
  const slices = agreementByProbeField(counts);
  const models = agreementByModel(counts);
  const shown = all ? slices : slices.slice(0, SLICE_ROWS);
  return (
    <Card title={label}>
      <div className="space-y-4" data-testid="agreement-group" data-group={groupKey}>
        <p className="text-sm text-slate-800">
          Scorer <AgreeText s={s} /> · <KappaText k={s.kappa} />
        </p>
        <div className="grid items-start gap-4 xl:grid-cols-[auto_minmax(0,1fr)]">
          <ConfusionTable s={s} cellHref={cellLinker(counts, { ...scope, group: groupKey })} />
          <div className="space-y-4">
            {models.length > 1 || models[0]?.key ? (
              <SliceTable
                title="Per model"
                rows={models.map((m) => ({
                  key: m.key,
                  name: m.key || "no model",
                  s: m.summary,
                  href: null,
                }))}
                testId="per-model"
              />
            ) : null}
            <SliceTable
              title="Per probe and field, most disagreements first"
              testId="per-probe-field"
              rows={shown.map((x) => {
                const [probe, field] = x.key.split("\u0000");
                const p = new URLSearchParams({ probe, field });
                if (scope.model) p.set("model", scope.model);
                if (scope.run) p.set("run", scope.run);
                return { key: x.key, name: `${probe} · ${field}`, s: x.summary, href: `/agreement?${p}` };
              })}
            />
            {shown.length < slices.length ? (
              <Link
                href={`/agreement?${new URLSearchParams({ group: groupKey, ...(scope.model ? { model: scope.model } : {}), ...(scope.run ? { run: scope.run } : {}) })}`}
                className="text-sm text-indigo-700 underline"
              >
                All {slices.length.toLocaleString("en-US")} probes and fields of this group
              </Link>
            ) : null}
          </div>
        </div>
      </div>
    </Card>
  );
}

function SliceTable({
  title,
  rows,
  testId,
}: {
  title: string;
  rows: { key: string; name: string; s: ReturnType<typeof summarize>; href: string | null }[];
  testId: string;
}) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full max-w-3xl text-sm" data-testid={testId}>
        <caption className="mb-1 text-left text-xs font-medium text-slate-500 uppercase">{title}</caption>
        <thead className="text-left text-xs text-slate-500">
          <tr>
            <th className="py-1 pr-3 font-medium" />
            <th className="py-1 pr-3 text-right font-medium">fields</th>
            <th className="py-1 pr-3 text-right font-medium">agree</th>
            <th className="py-1 font-medium">kappa</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} className="border-t border-slate-100" data-testid="slice" data-key={r.key}>
              <th
                scope="row"
                className="py-1 pr-3 text-left font-mono text-xs font-normal [overflow-wrap:anywhere]"
              >
                {r.href ? (
                  <Link href={r.href} className="text-indigo-700 underline">
                    {r.name}
                  </Link>
                ) : (
                  r.name
                )}
              </th>
              <td className="py-1 pr-3 text-right font-mono tabular-nums">
                {r.s.total.toLocaleString("en-US")}
              </td>
              <td className="py-1 pr-3 text-right font-mono tabular-nums">
                {sharePct(r.s.agree, r.s.total, 0)}
              </td>
              <td className="py-1 font-mono text-xs tabular-nums">
                {r.s.kappa.kappa === null ? "none" : r.s.kappa.kappa.toFixed(2)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One probe and field: its matrix, and one per model. */
function FocusCard({ counts, scope }: { counts: LabelledCount[]; scope: AgreementScope }) {
  const s = summarize(counts);
  const models = agreementByModel(counts);
  return (
    <Card title={`${scope.probe} · ${scope.field}`}>
      <div className="space-y-4" data-testid="agreement-focus">
        {counts.length === 0 ? (
          <p className="text-sm text-slate-600">No field of this probe has a human label here.</p>
        ) : (
          <>
            <p className="text-sm text-slate-800">
              Scorer <AgreeText s={s} /> · <KappaText k={s.kappa} />
            </p>
            <ConfusionTable s={s} cellHref={cellLinker(counts, scope)} />
            {models.length > 1
              ? models.map((m) => (
                  <div key={m.key} data-testid="focus-model" data-model={m.key}>
                    <h3 className="text-sm font-medium">
                      <span className="font-mono">{m.key || "no model"}</span>:{" "}
                      <span className="font-normal text-slate-700">
                        <AgreeText s={m.summary} /> · <KappaText k={m.summary.kappa} />
                      </span>
                    </h3>
                    <ConfusionTable
                      s={m.summary}
                      cellHref={cellLinker(m.counts, { ...scope, model: m.key })}
                      testId="confusion-model"
                    />
                  </div>
                ))
              : null}
          </>
        )}
      </div>
    </Card>
  );
}
