import type { TraceFileFormat } from "../formats/detect";
import { EMPTY_LEXICON, type Lexicon } from "../lexicon/lexicon";
import type { Probe } from "../probe/schema";
import { describeIssues, ProbeSchema } from "../probe/schema";
import type { Batcher } from "./batcher";
import { isGateDecisionRecord, prepareGateDecision } from "./gateLog";
import type { IngestOptions, IngestSource, IngestStore } from "./pipeline";
import { prepareError, prepareTrace } from "./prepare";
import { isSpanForm, readSpan, resolveSpanProbe, type SpanForm, spanParts } from "./spanRecord";
import type { SplitRecord } from "./splitRecords";
import type { Tally } from "./tally";
import { interpretRecord, type RecordDefaults, type TraceRecord } from "./traceRecord";
import { convertWhen2Call } from "./when2call";

/**
 * The deepest nesting of objects and arrays a record may have (the record itself is level 1).
 * Deeper records are rejected before anything walks them: scoring, storing and every page that
 * shows a trace then stay within a known recursion depth.
 */
export const MAX_NESTING = 64;

/** True when `v` nests objects and arrays more than `levels` deep. Never recurses past `levels`. */
export function nestedDeeperThan(v: unknown, levels: number): boolean {
  if (typeof v !== "object" || v === null) return false;
  if (levels === 0) return true;
  if (Array.isArray(v)) {
    for (const x of v) if (nestedDeeperThan(x, levels - 1)) return true;
    return false;
  }
  const o = v as Record<string, unknown>;
  for (const k in o) if (nestedDeeperThan(o[k], levels - 1)) return true;
  return false;
}

/** A failure of the store itself (not of the record it was called for): it stops the ingest. */
class StoreFailure extends Error {
  constructor(readonly original: unknown) {
    super("store failure");
  }
}

function storeCall<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw new StoreFailure(e);
  }
}

/** Where a record came from: its source and the run its file's records default to. */
export interface RecordOrigin {
  src: IngestSource;
  defaultRun: string;
  /** The format its source is read as (told from its content, or asked for). */
  format?: TraceFileFormat;
}

/**
 * Turns split records into prepared traces and rejected records, in the batch being gathered:
 * each record is read, its probe resolved (an inline probe stored as a version), scored and
 * prepared for the store. Anything that fails for one record rejects that record with a reason;
 * only a failure of the store stops the ingest.
 */
export class RecordReader {
  private readonly versions = new Map<string, { probe: Probe; version: number }>();
  private readonly inlineVersions = new Map<string, { probe: Probe; version: number }>();
  private readonly defaults: RecordDefaults;
  /** Read once, at the ingest's first record: every record of one ingest scores with the same lexicon. */
  private lexiconRead: Lexicon | null = null;
  /** Every probe, read once, for spans resolved by their tools. */
  private allProbes: Probe[] | null = null;
  /** Per source: the run each model's generations go to (the first model takes the source's run). */
  private readonly modelRuns = new Map<string, Map<string, string>>();

  constructor(
    private readonly options: IngestOptions,
    private readonly store: IngestStore,
    private readonly batch: Batcher,
    private readonly tally: Tally,
  ) {
    this.defaults = { probe: options.probe };
  }

  /** Reads one split record into the batch (or rejects it). */
  take(at: RecordOrigin, rec: SplitRecord) {
    this.tally.summary.records++;
    if (rec.error !== undefined) return this.reject(at, rec, rec.error);
    const mark = this.batch.mark();
    const { records, rejected } = this.tally.summary;
    try {
      if (nestedDeeperThan(rec.value, MAX_NESTING))
        return this.reject(
          at,
          rec,
          `nested too deeply: more than ${MAX_NESTING} levels of objects and arrays (the limit)`,
        );
      const format = at.format ?? this.options.format;
      if (format === "when2call") this.when2call(at, rec);
      else if (isSpanForm(format)) this.span(at, rec, format);
      else if (isGateDecisionRecord(rec.value)) this.gateDecision(at, rec);
      else this.accept(at, rec, rec.value);
    } catch (e) {
      if (e instanceof StoreFailure) throw e.original;
      // Whatever failed, failed for this record: take back what it added, reject it, go on.
      this.batch.rewind(mark);
      Object.assign(this.tally.summary, { records, rejected });
      this.reject(at, rec, `the record cannot be processed: ${(e as Error)?.message ?? String(e)}`);
    }
  }

  /** `whole`: the record's text is kept whole (no probe matched it: a probe can be made from it). */
  reject(at: RecordOrigin, rec: SplitRecord, why: string, whole = false): void {
    const { src, defaultRun } = at;
    this.tally.summary.rejected++;
    // A span's reason names where it is in its line or document.
    const reason = rec.path !== undefined && !why.includes(rec.path) ? `${rec.path}: ${why}` : why;
    const listed: { file: string; line: number; reason: string; path?: string } = {
      file: src.file,
      line: rec.line,
      reason,
    };
    if (rec.path !== undefined) listed.path = rec.path;
    this.batch.addError(
      prepareError(defaultRun, src.file, src.name, rec.line, reason, rec.bytes, whole),
      listed,
    );
  }

  /**
   * A span of another tool's trace: a model generation is scored as a trace (its probe named,
   * given or found by its tools; its run by its model), any other span is skipped and counted.
   */
  private span(at: RecordOrigin, rec: SplitRecord, form: SpanForm) {
    const read = readSpan(form, rec.value);
    if (read.kind === "skip") {
      this.tally.summary.records--;
      this.tally.skipped();
      return;
    }
    if (read.kind === "error") return this.reject(at, rec, read.reason);
    const g = read.generation;
    const parts = spanParts(g);
    if ("error" in parts) return this.reject(at, rec, parts.error);
    const given = this.options.probeGiven ? this.options.probe : undefined;
    const probe = resolveSpanProbe(
      g,
      given,
      (id) => this.lookup(id)?.probe,
      () => {
        const store = this.store;
        this.allProbes ??= storeCall(() => store.probes?.() ?? []);
        return this.allProbes;
      },
    );
    if ("error" in probe) return this.reject(at, rec, probe.error, true);
    const model = parts.model ?? this.options.model ?? "unknown";
    const record: TraceRecord = {
      form,
      id: parts.id,
      run: this.runOfModel(at, model),
      model,
      probe,
      probeInline: false,
      response: parts.response,
      payloadModel: parts.payloadModel,
      raw: parts.raw,
    };
    if (parts.world_state) record.world_state = parts.world_state;
    if (parts.started_at !== undefined) record.started_at = parts.started_at;
    if (parts.latency_ms !== undefined) record.latency_ms = parts.latency_ms;
    this.batch.addTrace(
      prepareTrace(record, {
        runName: record.run ?? at.defaultRun,
        defaultRun: at.defaultRun,
        model,
        runParams: null,
        probe,
        probeVersion: this.lookup(probe.id)?.version ?? 0,
        lexicon: this.lexicon(),
        file: at.src.file,
        source: at.src.name,
        line: rec.line,
        bytes: rec.bytes,
        text: rec.text,
      }),
    );
  }

  /** A file whose generations name several models: one run per model, the first in the source's run, the others in RUN/MODEL. */
  private runOfModel(at: RecordOrigin, model: string): string {
    let runs = this.modelRuns.get(at.src.file);
    if (!runs) {
      runs = new Map();
      this.modelRuns.set(at.src.file, runs);
    }
    let run = runs.get(model);
    if (run === undefined) {
      run = runs.size === 0 ? at.defaultRun : `${at.defaultRun}/${model}`.slice(0, 200);
      runs.set(model, run);
    }
    return run;
  }

  private lexicon(): Lexicon {
    if (this.lexiconRead === null) {
      const store = this.store;
      this.lexiconRead = store.lexicon ? storeCall(() => store.lexicon?.() ?? EMPTY_LEXICON) : EMPTY_LEXICON;
    }
    return this.lexiconRead;
  }

  private lookup(id: string): { probe: Probe; version: number } | undefined {
    let hit = this.versions.get(id);
    if (!hit) {
      hit = storeCall(() => this.store.probe(id));
      if (hit) this.versions.set(id, hit);
    }
    return hit;
  }

  private accept(at: RecordOrigin, rec: SplitRecord, value: unknown, runParams?: Record<string, unknown>) {
    const r = interpretRecord(value, this.defaults, (id) => this.lookup(id)?.probe);
    if (!r.ok) return this.reject(at, rec, r.reason);
    const t = r.record;
    let version: number;
    let probe = t.probe;
    if (t.probeInline) {
      const key = JSON.stringify(t.probe);
      let v = this.inlineVersions.get(key);
      if (v === undefined) {
        const given = t.probe;
        const saved = storeCall(() => this.store.saveProbe(given, `inline:${at.src.name}`));
        v = { version: saved.version, probe: saved.probe ?? given };
        this.inlineVersions.set(key, v);
        this.versions.delete(t.probe.id);
      }
      version = v.version;
      probe = v.probe;
    } else {
      version = this.lookup(t.probe.id)?.version ?? 0;
    }
    this.batch.addTrace(
      prepareTrace(t, {
        runName: t.run ?? at.defaultRun,
        defaultRun: at.defaultRun,
        model: t.model ?? this.options.model ?? "unknown",
        runParams: runParams ?? t.params ?? null,
        probe,
        probeVersion: version,
        lexicon: this.lexicon(),
        file: at.src.file,
        source: at.src.name,
        line: rec.line,
        bytes: rec.bytes,
        text: rec.text,
      }),
    );
  }

  /** A line of a gate decision log (recognised by its schema marker): one decision of a gate-log run. */
  private gateDecision(at: RecordOrigin, rec: SplitRecord) {
    const d = prepareGateDecision(rec.value, {
      defaultRun: at.defaultRun,
      model: this.options.model ?? "unknown",
      file: at.src.file,
      source: at.src.name,
      line: rec.line,
      bytes: rec.bytes,
      text: rec.text,
    });
    if (!d.ok) return this.reject(at, rec, d.reason);
    this.batch.addTrace(d.trace);
  }

  /** A When2Call line: its probe stored, its four candidate answers as records (counted as one line). */
  private when2call(at: RecordOrigin, rec: SplitRecord) {
    const c = convertWhen2Call(rec.value, rec.line, at.defaultRun);
    if (!c.ok) return this.reject(at, rec, c.reason);
    const parsed = ProbeSchema.safeParse(c.probe);
    if (!parsed.success) return this.reject(at, rec, `probe: ${describeIssues(parsed.error)}`);
    const saved = storeCall(() => this.store.saveProbe(parsed.data, "when2call"));
    this.versions.set(parsed.data.id, { probe: saved.probe ?? parsed.data, version: saved.version });
    const summary = this.tally.summary;
    for (const r of c.records) {
      summary.records++;
      this.accept(at, rec, r, { dataset: "NVIDIA When2Call test set (Apache-2.0)" });
    }
    summary.records--; // the When2Call line itself was counted once
  }
}
