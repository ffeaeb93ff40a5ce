import { type Frame, JsonScanner } from "./jsonScanner";
import { type LangfuseLayout, langfuseLayout } from "./langfuse";
import type { PhoenixLayout } from "./phoenix";
import { PROMPTFOO_PATHS } from "./promptfoo";

/**
 * Telling a file's format from its content (DESIGN.md, "Traces from other tools"): by the places
 * its keys stand in and their companion keys, never by one key name. The one place formats are
 * told apart: a new format adds a detector to DETECTORS.
 */

export type TraceFileFormat =
  | "trace"
  | "when2call"
  | "otlp"
  | "phoenix"
  | "promptfoo"
  | "inspect"
  | "langfuse";
/** What `--format` takes: a format, or `auto` (told from the content). */
export const FORMAT_CHOICES = [
  "auto",
  "trace",
  "otlp",
  "phoenix",
  "promptfoo",
  "inspect",
  "langfuse",
  "when2call",
] as const;
export type FormatChoice = (typeof FORMAT_CHOICES)[number];

/** How much of a source is read to tell its format. */
export const SNIFF_BYTES = 1024 * 1024;
const MAX_PATHS = 4096;

/** What the head of a source shows: its first bytes and the key paths in them. */
export interface Head {
  bytes: Buffer;
  /**
   * Every key path seen (up to MAX_PATHS), keys joined by `.`, an array as `[]`: the root
   * object's `resourceSpans` holding `scopeSpans` is `resourceSpans[].scopeSpans`; the key of an
   * object in a top-level array is `[].key`.
   */
  paths: Set<string>;
}

export interface Detection {
  format: TraceFileFormat;
  /** Where Phoenix spans are. */
  layout?: PhoenixLayout;
  /** What an Inspect source is: a `.eval` zip, a `.json` EvalLog, or generation records (JSONL). */
  inspect?: "eval" | "log" | "generations";
  /** Where Langfuse observations are. */
  observations?: LangfuseLayout;
  /** What in the content decided it, for messages. */
  evidence: string;
}

export interface Detector {
  format: TraceFileFormat;
  detect(head: Head): Detection | null;
}

const OTLP_PATHS = [
  "resourceSpans[].scopeSpans",
  "resourceSpans[].instrumentationLibrarySpans",
  "resource_spans[].scope_spans",
];

const PHOENIX_LAYOUTS: [PhoenixLayout, string][] = [
  ["lines", ""],
  ["array", "[]."],
  ["data", "data[]."],
];

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

const LANGFUSE_FIELDS = "observations with type GENERATION, SPAN, EVENT, ... beside traceId";

/** In order: the first that matches decides; none matching means our own records. */
export const DETECTORS: Detector[] = [
  {
    format: "otlp",
    detect(head) {
      const p = OTLP_PATHS.find((x) => head.paths.has(x));
      return p ? { format: "otlp", evidence: "resourceSpans holding scopeSpans" } : null;
    },
  },
  {
    format: "phoenix",
    detect(head) {
      for (const [layout, prefix] of PHOENIX_LAYOUTS) {
        if (head.paths.has(`${prefix}context.span_id`) && head.paths.has(`${prefix}span_kind`))
          return { format: "phoenix", layout, evidence: "spans with context.span_id and span_kind" };
      }
      return null;
    },
  },
  {
    format: "promptfoo",
    detect(head) {
      return PROMPTFOO_PATHS.every((p) => head.paths.has(p))
        ? { format: "promptfoo", evidence: "results holding results with provider and response" }
        : null;
    },
  },
  {
    // Inspect AI: a `.eval` zip, or an EvalLog whose `eval` names its `task` beside `samples`.
    format: "inspect",
    detect(head) {
      if (head.bytes.subarray(0, 4).equals(ZIP_MAGIC))
        return { format: "inspect", inspect: "eval", evidence: "a zip archive (an Inspect .eval log)" };
      if (head.paths.has("eval.task") && head.paths.has("samples"))
        return { format: "inspect", inspect: "log", evidence: "an EvalLog: eval with task, and samples" };
      // The records an Inspect log is split into (lib/formats/inspect.ts), one a line: what a re-ingest sends.
      return head.paths.has("inspect_generation.index") && head.paths.has("sample.id")
        ? {
            format: "inspect",
            inspect: "generations",
            evidence: "Inspect generation records: inspect_generation beside its sample",
          }
        : null;
    },
  },
  {
    format: "langfuse",
    detect(head) {
      const at = langfuseLayout(head.paths, head.bytes);
      return at === null ? null : { format: "langfuse", observations: at, evidence: LANGFUSE_FIELDS };
    },
  },
];

function keyPath(stack: readonly Frame[], key: string): string {
  let p = "";
  for (let i = 0; i < stack.length; i++) {
    const f = stack[i];
    if (f.type === "a") p += "[]";
    else if (i < stack.length - 1) p += `${p === "" ? "" : "."}${f.key ?? ""}`;
  }
  return p === "" ? key : `${p}.${key}`;
}

/** Reads the key paths of a source's first bytes (no value is kept). */
export function readHead(bytes: Buffer): Head {
  const paths = new Set<string>();
  const scanner = new JsonScanner({
    select: () => false,
    maxBytes: 1,
    onKey(stack, key) {
      if (paths.size < MAX_PATHS) paths.add(keyPath(stack, key));
    },
  });
  scanner.push(bytes);
  return { bytes, paths };
}

/** The format of a source from its head; an error message when it matches none. */
export function detectFormat(head: Head): Detection | { error: string } {
  for (const d of DETECTORS) {
    const hit = d.detect(head);
    if (hit) return hit;
  }
  // Anything else is read as our records, rejected record by record (DESIGN.md).
  return { format: "trace", evidence: "no other format's fields: read as trace records" };
}

/** What each format's detector looks for, for a --format the content contradicts. */
const FIELDS: Partial<Record<FormatChoice, string>> = {
  langfuse: LANGFUSE_FIELDS,
  otlp: "resourceSpans holding scopeSpans",
  phoenix: "spans with context.span_id and span_kind",
  promptfoo: "results holding results with provider and response",
  inspect: "a zip (.eval), or an EvalLog: eval with task, and samples",
};

/**
 * The format a source is read as: the detected one under `auto`; the one asked for, unless the
 * content is plainly another format's (an error that says which, and what to pass).
 */
export function chooseFormat(choice: FormatChoice, head: Head): Detection | { error: string } {
  const found = detectFormat(head);
  if (choice === "auto") return found;
  if ("error" in found) return { error: `--format ${choice}: ${found.error.replace(/^it /, "the file ")}` };
  const ours = (f: TraceFileFormat) => f === "trace" || f === "when2call";
  if (found.format === choice || (ours(choice) && ours(found.format))) {
    return ours(choice) ? { format: choice, evidence: "--format" } : found;
  }
  if (ours(found.format))
    return {
      error: `--format ${choice}, but the file has none of that format's fields (${FIELDS[choice] ?? choice}) in its first ${SNIFF_BYTES} bytes; it reads as trace records (--format auto or trace)`,
    };
  return {
    error: `--format ${choice}, but the file is ${found.format} (${found.evidence}); pass --format ${found.format} or auto`,
  };
}
