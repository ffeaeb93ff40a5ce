import { createHash } from "node:crypto";
import { isObject } from "../isObject";

/**
 * A split of labelled data into a part that suggestions learn from and a part the result is
 * measured on, by a hash of each record's group (never by hand): a group's records always land
 * on the same side, whatever else the file holds, so no question is learned from and measured.
 *
 * The side of a group is the first byte of the SHA-256 of its UTF-8 text: below 128 it is
 * `train`, else `measure`.
 */
export type SplitSide = "train" | "measure";

export function splitSide(group: string): SplitSide {
  return createHash("sha256").update(group, "utf8").digest()[0] < 128 ? "train" : "measure";
}

/** The runs the When2Call calibration data is split into. */
export const WHEN2CALL_TRAIN_RUN = "when2call-train";
export const WHEN2CALL_MEASURE_RUN = "when2call-measure";

/**
 * A When2Call record's group: its question. The four candidate answers of a record share it, and
 * so do the records that ask the same question with and without its tool.
 */
export function when2callGroup(record: unknown): string | null {
  if (!isObject(record) || typeof record.question !== "string" || record.question === "") return null;
  return record.question;
}

export interface SplitFile {
  /** The lines of each side, byte for byte as they were (without their line endings). */
  train: string[];
  measure: string[];
  /** Lines that have no group (not JSON, or no question), by 1-based number: they go nowhere. */
  errors: { line: number; reason: string }[];
}

/** Splits a When2Call JSONL text by group; blank lines are skipped, a byte-order mark and CRLF accepted. */
export function splitWhen2Call(text: string): SplitFile {
  const out: SplitFile = { train: [], measure: [], errors: [] };
  const lines = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split("\n");
  lines.forEach((raw, i) => {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      out.errors.push({ line: i + 1, reason: `not JSON: ${(e as Error).message}` });
      return;
    }
    const group = when2callGroup(value);
    if (group === null) {
      out.errors.push({ line: i + 1, reason: "question: missing or not a non-empty string" });
      return;
    }
    out[splitSide(group)].push(line);
  });
  return out;
}
