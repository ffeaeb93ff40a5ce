import {
  closeSync,
  createReadStream,
  existsSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
} from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { isObject } from "../isObject";
import { sampleId } from "./record";

/**
 * What `--resume` reads from the output file: the (run, id) pairs it holds. A last line with no
 * newline (the run was killed while writing it) that parses is completed with a newline before
 * anything is appended; one that does not is counted as not done (its sample is asked again) and
 * is cut from the file (`cutTornLine`), so no later ingest of the file meets it.
 */
export interface ResumeState {
  /** Runs in the file in order of first appearance: the model their records name and their ids. */
  runs: Map<string, { model: string | null; ids: Set<string> }>;
  /** The run of the last whole record. */
  lastRun: string | null;
  /** The file ends without a newline: write one before appending. */
  needsNewline: boolean;
  /** The line number of a cut-off last line that did not parse. */
  cutLine: number | null;
  /** Where that line starts, in bytes, and the file's length when it was read. */
  cut: { at: number; size: number } | null;
}

export function emptyResume(): ResumeState {
  return { runs: new Map(), lastRun: null, needsNewline: false, cutLine: null, cut: null };
}

/** Folds one line into the state; returns false when it is not a record with a run and an id. */
function addLine(state: ResumeState, line: string): boolean {
  if (line.trim() === "") return true;
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return false;
  }
  if (!isObject(v) || typeof v.run !== "string" || (typeof v.id !== "string" && typeof v.id !== "number"))
    return false;
  let run = state.runs.get(v.run);
  if (!run) {
    run = { model: typeof v.model === "string" ? v.model : null, ids: new Set() };
    state.runs.set(v.run, run);
  }
  run.ids.add(String(v.id));
  state.lastRun = v.run;
  return true;
}

/** Reads the state from text chunks (a file's, in order). */
export async function readResume(
  chunks: AsyncIterable<string | Buffer> | Iterable<string>,
): Promise<ResumeState> {
  const state = emptyResume();
  const decoder = new StringDecoder("utf8");
  let rest = "";
  let lines = 0;
  // Bytes read, and the byte where the line being read starts.
  let size = 0;
  let lineStart = 0;
  for await (const chunk of chunks) {
    if (typeof chunk === "string") {
      const nl = chunk.lastIndexOf("\n");
      if (nl >= 0) lineStart = size + Buffer.byteLength(chunk.slice(0, nl + 1));
      size += Buffer.byteLength(chunk);
    } else {
      const nl = chunk.lastIndexOf(0x0a);
      if (nl >= 0) lineStart = size + nl + 1;
      size += chunk.length;
    }
    const text = rest + (typeof chunk === "string" ? chunk : decoder.write(chunk));
    const parts = text.split("\n");
    rest = parts.pop() ?? "";
    for (const p of parts) {
      lines++;
      addLine(state, p);
    }
  }
  rest += decoder.end();
  if (rest !== "") {
    lines++;
    state.needsNewline = true;
    if (!addLine(state, rest)) {
      state.cutLine = lines;
      state.cut = { at: lineStart, size };
    }
  }
  return state;
}

/**
 * Cuts the torn last line `readResume` found from the file, in one truncate (the file holds the
 * line or does not, never part of a cut), synced to disk before anything is appended. Refuses when
 * the file changed since it was read (another writer): the caller says so.
 */
export function cutTornLine(
  path: string,
  cut: { at: number; size: number },
): { ok: true } | { ok: false; error: string } {
  const fd = openSync(path, "r+");
  try {
    const now = fstatSync(fd).size;
    if (now !== cut.size)
      return {
        ok: false,
        error: `${path} changed while it was read (${cut.size} bytes, now ${now}): is another run writing it?`,
      };
    ftruncateSync(fd, cut.at);
    fsyncSync(fd);
    return { ok: true };
  } finally {
    closeSync(fd);
  }
}

/** The state of a file on disk; an absent file is an empty one (a first run with --resume). */
export function readResumeFile(path: string): Promise<ResumeState> {
  if (!existsSync(path)) return Promise.resolve(emptyResume());
  return readResume(createReadStream(path));
}

export type ResumeChoice = { ok: true; run: string | null; done: Set<string> } | { ok: false; error: string };

/**
 * The run to continue and the ids it holds: `--run` when given, else the file's last run (null: the
 * file holds none, start a new one). A run whose records name another model cannot be continued
 * with this one: the dashboard pins a run's model.
 */
export function chooseRun(
  state: ResumeState,
  opts: { run?: string; model: string; file: string },
): ResumeChoice {
  const run = opts.run ?? state.lastRun;
  if (run === null) return { ok: true, run: null, done: new Set() };
  const held = state.runs.get(run);
  if (held && held.model !== null && held.model !== opts.model) {
    return {
      ok: false,
      error: `${opts.file}: run "${run}" was asked of model "${held.model}", not "${opts.model}"; resume it with --model ${held.model}, or start another run with --run`,
    };
  }
  return { ok: true, run, done: held?.ids ?? new Set() };
}

export interface Sample {
  probe: string;
  /** From 1. */
  sample: number;
  id: string;
}

const SAMPLE_ID = /^(.+)#(\d+)$/;

/**
 * Every (probe, sample) not yet done, probe by probe, in sample order. Sample numbers are compared
 * as numbers, so a run resumed with more samples (`#0001` before, `#00001` now) skips what it holds.
 */
export function pendingSamples(
  probes: readonly string[],
  samples: number,
  width: number,
  done: ReadonlySet<string>,
): { pending: Sample[]; skipped: number } {
  const held = new Set<string>();
  for (const id of done) {
    const m = SAMPLE_ID.exec(id);
    if (m) held.add(`${m[1]}#${Number(m[2])}`);
  }
  const pending: Sample[] = [];
  let skipped = 0;
  for (const probe of probes) {
    for (let s = 1; s <= samples; s++) {
      if (held.has(`${probe}#${s}`)) skipped++;
      else pending.push({ probe, sample: s, id: sampleId(probe, s, width) });
    }
  }
  return { pending, skipped };
}
