import { z } from "zod";
import { ScopeSelect } from "@/app/_components/ScopeSelect";
import type { ProbeGroup } from "@/lib/probeGroups";
import { cellTargets, type LabelledCount, runPageHref } from "@/lib/review/agreementView";

const text = z.preprocess((v) => (Array.isArray(v) ? v[0] : v) || undefined, z.string().max(200).optional());

/**
 * What the agreement pages show: a model, a run (as the queue's `?run=`), a probe group, one probe
 * and field, a blind round (by name; only agreement between reviewers has rounds).
 */
const AgreementScopeSchema = z.object({
  model: text,
  run: text,
  group: text,
  probe: text,
  field: text,
  round: text,
});
export type AgreementScope = z.infer<typeof AgreementScopeSchema>;

export function parseAgreementScope(params: Record<string, string | string[] | undefined>): AgreementScope {
  return AgreementScopeSchema.catch({}).parse(params);
}

export function scopeParams(s: AgreementScope): URLSearchParams {
  const p = new URLSearchParams();
  for (const k of ["model", "run", "group", "probe", "field", "round"] as const)
    if (s[k]) p.set(k, s[k] as string);
  return p;
}

/**
 * A matrix cell's link: the run page filtered by field, our label and the human label when the
 * cell's fields sit in one run, probe and field; else the list of where they are.
 */
export function cellLinker(counts: readonly LabelledCount[], scope: AgreementScope) {
  return (ours: string, human: string): string | null => {
    const targets = cellTargets(counts, ours, human);
    if (targets.length === 0) return null;
    if (targets.length === 1) return runPageHref(targets[0], ours, human);
    const p = scopeParams(scope);
    p.set("ours", ours);
    p.set("human", human);
    return `/agreement/cell?${p}`;
  };
}

const select = "mt-1 max-w-[16rem] rounded border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900";

export function AgreementScopeForm({
  scope,
  models,
  runs,
  rounds = [],
  groups,
}: {
  scope: AgreementScope;
  models: string[];
  runs: string[];
  rounds?: string[];
  groups: ProbeGroup[];
}) {
  return (
    <form
      method="get"
      action="/agreement"
      className="flex flex-wrap items-end gap-2 text-xs text-slate-600"
      data-testid="agreement-scope"
    >
      <ScopeSelect
        label="Model"
        name="model"
        value={scope.model}
        any="all models"
        options={models}
        selectClassName={select}
      />
      <ScopeSelect
        label="Run"
        name="run"
        value={scope.run}
        any="all runs"
        options={runs}
        selectClassName={select}
      />
      {rounds.length > 0 || scope.round ? (
        <ScopeSelect
          label="Blind round"
          name="round"
          value={scope.round}
          any="all rounds"
          options={rounds}
          selectClassName={select}
        />
      ) : null}
      <label className="flex flex-col">
        Probes
        <select name="group" defaultValue={scope.group ?? ""} className={select}>
          <option value="">every group</option>
          {groups.map((g) => (
            <option key={g.key} value={g.key}>
              {g.label}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="rounded bg-slate-900 px-3 py-1.5 text-sm text-white">
        Show
      </button>
    </form>
  );
}
