import { ANY_FIELD } from "./ingest/tags";
import { filterToParams, type TraceFilter } from "./traceFilter";

/** Every file system takes these; a name is cut to stay well inside their limits. */
const MAX = 180;
const safe = (s: string, keep: RegExp) => s.replace(keep, "_");
const cut = (s: string) => (s.length > MAX ? s.slice(0, MAX) : s);

/** A download named by what it holds, its parts joined by `-`: `NAME-label-ASK-human-differs.jsonl`. */
function named(parts: string[], ext: string, keep = /[^A-Za-z0-9_.-]+/g): string {
  return `${cut(parts.map((p) => safe(p, keep)).join("-"))}${ext}`;
}

/**
 * A run's export under a filter: the run, then each filter parameter and its value, so two
 * filtered exports of one run never share a name (paging is not part of an export).
 */
export function runExportFileName(run: string, filter: TraceFilter): string {
  const parts = [run];
  for (const [k, v] of filterToParams(filter)) if (!(k === "field" && v === ANY_FIELD)) parts.push(k, v);
  return named(parts, ".jsonl");
}

/** A fixture set's JSONL download. */
export function setJsonlFileName(set: string): string {
  return named([set], ".jsonl");
}

/**
 * A fixture set's pytest download, by variant: `test_SET.py`, `test_SET_reference.py` (the
 * reference scorer inlined), `_MODULE` when it imports another module. pytest collects
 * `test_*.py`, and a module name holds no dots or dashes.
 */
export function pytestFileName(set: string, v: { module: string; reference: boolean }): string {
  const parts = [set];
  if (v.module !== "assumeprobe") parts.push(v.module);
  if (v.reference) parts.push("reference");
  return `test_${cut(parts.map((p) => safe(p, /[^A-Za-z0-9_]/g)).join("_"))}.py`;
}
