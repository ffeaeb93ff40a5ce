import { ANY_FIELD } from "@/lib/ingest/tags";
import type { ProbeGroup } from "@/lib/probeGroups";
import { SORTS, type Sort } from "./sort";

/** A group with more probes than this is one choice ("all 300 probes"), not one per probe. */
const LIST_UP_TO = 8;

export const GROUP_PREFIX = "group:";

const selectCls = "mt-1 w-full rounded border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900";

/**
 * The overview's filters as a plain GET form: model, probe (grouped by where probes came from,
 * so 300 When2Call probes are one choice), sort, and the field an INJECT sort reads.
 */
export function OverviewFilter({
  models,
  model,
  groups,
  probe,
  sort,
  sortFields,
  sortField,
}: {
  models: string[];
  model?: string;
  groups: ProbeGroup[];
  /** A probe id, or GROUP_PREFIX + a group key. */
  probe?: string;
  sort: Sort;
  sortFields: string[];
  sortField: string;
}) {
  return (
    <form
      method="get"
      action="/"
      className="flex flex-wrap items-end gap-2 text-xs text-slate-600"
      data-testid="runs-filter"
    >
      <label className="flex w-full flex-col sm:w-auto">
        Model
        <select name="model" defaultValue={model ?? ""} className={`${selectCls} sm:max-w-[14rem]`}>
          <option value="">all models</option>
          {models.map((m) => (
            <option key={m}>{m}</option>
          ))}
        </select>
      </label>
      <label className="flex w-full flex-col sm:w-auto">
        Probe
        <select
          name="probe"
          defaultValue={probe ?? ""}
          className={`${selectCls} sm:max-w-[18rem]`}
          data-testid="probe-filter"
        >
          <option value="">all probes</option>
          {groups.map((g) => (
            <optgroup key={g.key} label={`${g.label} (${g.probes.length})`}>
              {g.probes.length <= LIST_UP_TO ? (
                g.probes.map((p) => <option key={p}>{p}</option>)
              ) : (
                <>
                  <option value={`${GROUP_PREFIX}${g.key}`}>
                    all {g.probes.length.toLocaleString("en-US")} probes
                  </option>
                  {probe && g.probes.includes(probe) ? <option>{probe}</option> : null}
                </>
              )}
            </optgroup>
          ))}
        </select>
      </label>
      <label className="flex w-full flex-col sm:w-auto">
        Sort
        <select
          name="sort"
          defaultValue={sort}
          className={`${selectCls} sm:max-w-[22rem]`}
          data-testid="sort-select"
        >
          {Object.entries(SORTS).map(([k, v]) => (
            <option key={k} value={k}>
              {v}
            </option>
          ))}
        </select>
      </label>
      {sortFields.length > 2 ? (
        <label className="flex w-full flex-col sm:w-auto">
          INJECT sort field
          <select
            name="field"
            defaultValue={sortField}
            className={`${selectCls} sm:max-w-[12rem]`}
            data-testid="sort-field"
          >
            {sortFields.map((f) => (
              <option key={f} value={f}>
                {f === ANY_FIELD ? "every field, summed" : f}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <button type="submit" className="rounded bg-slate-900 px-3 py-1.5 text-sm text-white">
        Show
      </button>
    </form>
  );
}
