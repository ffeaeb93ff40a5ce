import Link from "next/link";
import { getDb } from "@/db/client";
import { traceOriginal } from "@/db/queries/probeFromTrace";
import { draftFromRecord } from "@/lib/probe/fromTrace";

/** "Make a probe from this", shown when the trace's request carried tool definitions. */
export function MakeProbeLink({ traceId }: { traceId: number }) {
  const t = traceOriginal(getDb(), traceId);
  if (!t) return null;
  let value: unknown;
  try {
    value = JSON.parse(t.text);
  } catch {
    return null;
  }
  if (draftFromRecord(value).tools.length === 0) return null;
  return (
    <Link
      href={`/probes/new?trace=${traceId}`}
      className="text-sm text-indigo-700 hover:underline"
      data-testid="make-probe-link"
    >
      Make a probe from this
    </Link>
  );
}
