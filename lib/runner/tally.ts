import { interpretRecord, type ProbeLookup } from "../ingest/traceRecord";
import { LABEL_ORDER } from "../labelOrder";
import { EMPTY_LEXICON, type Lexicon } from "../lexicon/lexicon";
import { bareLabelField, compileProbe } from "../probe/compile";
import { scoreTrace } from "../probe/score";
import type { RunRecord } from "./record";
import type { Failure } from "./retry";

export interface FailedSample {
  id: string;
  kind: Failure["kind"];
  status?: number;
  message: string;
}

/**
 * What a run has done so far, for the progress bar and the summary. Each answer is scored live
 * through the same record reading and scorer as ingest, so the labels counted here are the ones the
 * dashboard will show (with the probe configuration this command sees).
 */
export class RunTally {
  answers = 0;
  failed: FailedSample[] = [];
  retries = 0;
  requests = 0;
  /** Samples --resume found already answered. */
  skipped = 0;
  /** Labels per probe, per probed field. */
  labels: Record<string, Record<string, Record<string, number>>> = {};
  /** Trace flags (model_mismatch, fenced, multi_call...) over all answers. */
  flags: Record<string, number> = {};
  /** The field the bar shows: timezone when any probe probes it, else the first probe's first field. */
  readonly shownField: string | null;

  constructor(
    private readonly lookup: ProbeLookup,
    probes: readonly string[],
    private readonly lexicon: Lexicon = EMPTY_LEXICON,
  ) {
    const fields = probes.flatMap((id) => {
      const p = lookup(id);
      return p ? compileProbe(p).fields : [];
    });
    this.shownField = bareLabelField(fields);
  }

  answer(record: RunRecord): void {
    this.answers++;
    const r = interpretRecord(record, { probe: record.probe }, this.lookup);
    if (!r.ok) return;
    const score = scoreTrace(
      {
        response: r.record.response,
        model: { pinned: record.model, payload: r.record.payloadModel },
      },
      compileProbe(r.record.probe, this.lexicon),
    );
    this.labels[record.probe] ??= {};
    const perProbe = this.labels[record.probe];
    for (const [field, f] of Object.entries(score.fields)) {
      perProbe[field] ??= {};
      perProbe[field][f.label] = (perProbe[field][f.label] ?? 0) + 1;
    }
    for (const flag of score.flags) this.flags[flag] = (this.flags[flag] ?? 0) + 1;
  }

  fail(id: string, failure: Failure): void {
    const f: FailedSample = { id, kind: failure.kind, message: failure.message };
    if (failure.status !== undefined) f.status = failure.status;
    this.failed.push(f);
  }

  /** The shown field's labels summed over probes, in the dashboard's order (INJECT first). */
  shownLabels(): [string, number][] {
    const field = this.shownField;
    if (field === null) return [];
    const sum: Record<string, number> = {};
    for (const perProbe of Object.values(this.labels))
      for (const [label, n] of Object.entries(perProbe[field] ?? {})) sum[label] = (sum[label] ?? 0) + n;
    return LABEL_ORDER.filter((l) => sum[l]).map((l) => [l, sum[l]]);
  }
}
