import type { Db } from "@/db/client";
import { getRejected, type RejectedRow, rejectedUnmatched, traceOriginal } from "@/db/queries/probeFromTrace";
import { draftFromRecord, type ProbeDraft } from "@/lib/probe/fromTrace";

/** Where a draft comes from: a rejected record (`rejected=ID`) or a stored trace (`trace=ID`). */
export interface DraftSource {
  draft: ProbeDraft;
  /** The rejected records of the same ingest that no probe matched (what the what-if scores). */
  rejected: RejectedRow[];
  label: string;
}

export function loadSource(db: Db, kind: "rejected" | "trace", id: number): DraftSource | { error: string } {
  if (kind === "rejected") {
    const row = getRejected(db, id);
    if (!row) return { error: `there is no rejected record ${id}` };
    let value: unknown;
    try {
      value = JSON.parse(row.raw);
    } catch {
      return { error: `rejected record ${id} is not JSON` };
    }
    const rejected = row.batchId !== null ? rejectedUnmatched(db, row.batchId) : [row];
    return { draft: draftFromRecord(value), rejected, label: `${row.file}, line ${row.line}` };
  }
  const t = traceOriginal(db, id);
  if (!t) return { error: `there is no trace ${id}` };
  let value: unknown;
  try {
    value = JSON.parse(t.text);
  } catch {
    return { error: `trace ${id}'s original record is not JSON` };
  }
  const rejected = t.batchId !== null ? rejectedUnmatched(db, t.batchId) : [];
  return { draft: draftFromRecord(value), rejected, label: `trace ${id}` };
}

/** The reviewer's choices, from the form's fields. */
export function choicesOf(get: (k: string) => string | null, all: (k: string) => string[]) {
  const fields = all("field").filter((f) => f !== "");
  const hidden: Record<string, string> = {};
  for (const f of fields) {
    const v = get(`hidden.${f}`)?.trim() ?? "";
    if (v !== "") hidden[f] = v;
  }
  return { id: (get("id") ?? "").trim(), tool: get("tool") ?? "", fields, hidden };
}
