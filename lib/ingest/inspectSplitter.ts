import { type InspectContext, inspectGenerations, inspectModel, modelEventOf } from "../formats/inspect";
import { type Frame, JsonScanner, type ScannedValue } from "../formats/jsonScanner";
import { isObject } from "../isObject";
import { OVERSIZED_HEAD_BYTES, type SplitRecord } from "./splitRecords";

/**
 * Inspect AI logs as records (lib/formats/inspect.ts reads them): each sample, held alone, split
 * into one record a model generation. A sample that cannot be read (cut off, too big, not JSON,
 * no id) is one rejected record, with its path; a sample with no generation is skipped and counted.
 */

/** Where a sample stands in its source, and its bytes (or why they cannot be read). */
export interface SampleAt {
  bytes: Buffer;
  line: number;
  /** The sample's place: `samples[3]` in a `.json` log, `samples/1_epoch_1.json` in a `.eval`. */
  path: string;
  /** The offset just past it in its source. */
  end: number;
  error?: string;
}

export interface SampleContext extends InspectContext {
  /**
   * The log's `eval` (which names the model) has not been read yet: a `.json` log whose samples
   * come before it. A generation whose model event names no model is then rejected unless
   * `--model` gives one, rather than stored in another run than the log's other generations.
   */
  modelPending?: boolean;
  /** `--model`. */
  defaultModel?: string;
}

/** A sample's generations as records, or the one record that rejects it; null when it has no generation. */
export function sampleRecords(
  s: SampleAt,
  ctx: SampleContext,
  maxBytes: number,
  join: (sample: string, generation: string) => string,
): SplitRecord[] | null {
  const base = { line: s.line, end: s.end };
  if (s.error !== undefined) return [{ ...base, bytes: s.bytes, path: s.path, error: s.error }];
  let value: unknown;
  try {
    value = JSON.parse(s.bytes.toString("utf8"));
  } catch (e) {
    return [{ ...base, bytes: head(s.bytes), path: s.path, error: `not JSON: ${(e as Error).message}` }];
  }
  const split = inspectGenerations(value, ctx);
  if ("error" in split) return [{ ...base, bytes: head(s.bytes), path: s.path, error: split.error }];
  if (split.records.length === 0) return null;
  return split.records.map((r) => {
    const text = JSON.stringify(r.value);
    const bytes = Buffer.from(text, "utf8");
    const rec: SplitRecord = { ...base, bytes, path: join(s.path, r.path) };
    if (bytes.length > maxBytes) {
      rec.bytes = head(bytes);
      rec.error = `the generation record is ${bytes.length} bytes, over the limit of ${maxBytes} (--max-record-bytes)`;
    } else if (ctx.modelPending && ctx.defaultModel === undefined && !eventNamesModel(r.value.sample)) {
      rec.error =
        "the log's eval, which names its model, comes after this sample and its model event names none: pass --model";
    } else {
      rec.value = r.value;
      rec.text = text;
    }
    return rec;
  });
}

function eventNamesModel(sample: Record<string, unknown>): boolean {
  const e = modelEventOf(sample);
  return e !== null && typeof e.model === "string";
}

/** What is kept of a record that cannot be read: its first bytes. */
function head(bytes: Buffer): Buffer {
  return bytes.length > OVERSIZED_HEAD_BYTES ? bytes.subarray(0, OVERSIZED_HEAD_BYTES) : bytes;
}

/** Picks an EvalLog's `eval` and each of its `samples[i]`. */
function selectLogParts(stack: readonly Frame[]): boolean {
  const top = stack[0];
  if (top?.type !== "o") return false;
  if (stack.length === 1) return top.key === "eval";
  return stack.length === 2 && top.key === "samples" && stack[1].type === "a";
}

/**
 * A `.json` EvalLog read streaming: `eval` gives the model, each `samples[i]` is read alone (the
 * memory of the largest sample, never the log's). Inspect writes `eval` first; a log whose
 * samples come first is read all the same (see SampleContext.modelPending).
 */
export class InspectLogSplitter {
  private readonly scanner: JsonScanner;
  private ctx: SampleContext;

  constructor(
    private readonly maxBytes: number,
    defaultModel: string | undefined,
    private readonly skip: () => void,
  ) {
    this.scanner = new JsonScanner({ select: selectLogParts, maxBytes });
    this.ctx = { model: null, modelPending: true };
    if (defaultModel !== undefined) this.ctx.defaultModel = defaultModel;
  }

  get lines(): number {
    return this.scanner.lines;
  }

  push(chunk: Buffer): SplitRecord[] {
    return this.records(this.scanner.push(chunk));
  }

  end(): SplitRecord[] {
    return this.records(this.scanner.end());
  }

  private records(values: ScannedValue[]): SplitRecord[] {
    const out: SplitRecord[] = [];
    for (const v of values) {
      if (v.path === "eval" && v.error === undefined) {
        let spec: unknown;
        try {
          spec = JSON.parse(v.bytes.toString("utf8"));
        } catch {
          spec = null;
        }
        this.ctx = { ...this.ctx, model: inspectModel(spec), modelPending: false };
        continue;
      }
      // A cut-off or broken document: reported where it stopped (a sample, or the log around it).
      const at: SampleAt = { bytes: v.bytes, line: v.line, path: v.path, end: v.offset + v.bytes.length };
      if (v.error !== undefined) at.error = v.error;
      if (v.path === "eval") at.error = `eval: ${v.error}`;
      const recs = sampleRecords(at, this.ctx, this.maxBytes, (s, g) => `${s}.${g}`);
      if (recs === null) this.skip();
      else out.push(...recs);
    }
    return out;
  }
}

/** The model a `.eval` log's `header.json` or `_journal/start.json` names (`eval.model`). */
export function zipLogModel(json: unknown): string | null {
  return isObject(json) ? inspectModel(json.eval) : null;
}
