import { ScopeSelect } from "@/app/_components/ScopeSelect";
import type { QueueProgress } from "@/db/queries/queue";
import type { ProbeGroup } from "@/lib/probeGroups";
import { QUEUE_RULE_TEXT, QUEUE_RULES } from "@/lib/review/queueRules";

export interface ScopeValues {
  run?: string;
  probe?: string;
  model?: string;
}

const select =
  "mt-1 w-full max-w-[18rem] rounded border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900 sm:w-auto";

/** The queue's scope: a run, a probe (grouped as the overview groups them), a model. */
export function ScopeForm({
  scope,
  runs,
  groups,
  models,
}: {
  scope: ScopeValues;
  runs: string[];
  groups: ProbeGroup[];
  models: string[];
}) {
  return (
    <form
      method="get"
      action="/review"
      className="flex flex-wrap items-end gap-2 text-xs text-slate-600"
      data-testid="queue-scope"
    >
      <ScopeSelect
        label="Run"
        name="run"
        value={scope.run}
        any="all runs"
        options={runs}
        className="flex min-w-0 flex-col"
        selectClassName={select}
      />
      <label className="flex min-w-0 flex-col">
        Probe
        <select name="probe" defaultValue={scope.probe ?? ""} className={select}>
          <option value="">all probes</option>
          {groups.map((g) => (
            <optgroup key={g.key} label={g.label}>
              {g.probes.map((p) => (
                <option key={p}>{p}</option>
              ))}
            </optgroup>
          ))}
        </select>
      </label>
      <ScopeSelect
        label="Model"
        name="model"
        value={scope.model}
        any="all models"
        options={models}
        className="flex min-w-0 flex-col"
        selectClassName={select}
      />
      <button type="submit" className="rounded bg-slate-900 px-3 py-1.5 text-sm text-white">
        Show
      </button>
    </form>
  );
}

/** Reviewed / total for the scope, how many reviews corrected ours or confirmed it, and what still waits per rule. */
export function ProgressLine({ p }: { p: QueueProgress }) {
  const pct = p.total ? Math.round((100 * p.reviewed) / p.total) : 0;
  const n = (x: number) => x.toLocaleString("en-US");
  return (
    <div className="space-y-1.5" data-testid="queue-progress" data-reviewed={p.reviewed} data-total={p.total}>
      <p className="text-sm text-slate-700">
        <span className="font-semibold text-slate-900">
          {n(p.reviewed)} of {n(p.total)}
        </span>{" "}
        queued fields reviewed in this scope ·{" "}
        <span data-testid="queue-corrects" className="text-red-800">
          {n(p.corrects)} corrected ours
        </span>{" "}
        ·{" "}
        <span data-testid="queue-confirms" className="text-emerald-800">
          {n(p.confirms)} confirmed it
        </span>
      </p>
      <div
        className="h-2 overflow-hidden rounded bg-slate-200"
        role="progressbar"
        aria-label="Queue progress"
        aria-valuemin={0}
        aria-valuemax={p.total}
        aria-valuenow={p.reviewed}
      >
        <div className="h-full bg-indigo-600" style={{ width: `${pct}%` }} />
      </div>
      {p.waitingTotal > 0 ? (
        <ul className="flex flex-wrap gap-1 text-[11px] text-slate-600" aria-label="Waiting per rule">
          {QUEUE_RULES.filter((r) => p.waiting[r]).map((r) => (
            <li
              key={r}
              className="rounded bg-slate-100 px-1.5 py-0.5"
              data-testid="waiting-rule"
              data-rule={r}
            >
              {QUEUE_RULE_TEXT[r].title}: {n(p.waiting[r] ?? 0)}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
