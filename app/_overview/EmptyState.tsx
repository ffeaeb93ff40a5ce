import Link from "next/link";

/** No runs yet: how to get some in. */
export function EmptyState() {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 bg-white p-8" data-testid="empty-state">
      <h2 className="text-lg font-semibold">No runs yet</h2>
      <p className="mt-1 text-sm text-slate-600">
        A run is the traces of one model against your probes. Ingest a JSONL trace file from the command line:
      </p>
      <pre className="mt-3 rounded bg-slate-900 p-3 font-mono text-sm text-slate-100">
        npx assumeprobe ingest nightly-2026-11-29.jsonl --model qwen2.5-7b-instruct
      </pre>
      <p className="mt-3 text-sm text-slate-600">
        or{" "}
        <Link href="/upload" className="text-indigo-700 underline">
          upload a file
        </Link>{" "}
        in the browser. The record format is in docs/trace-format.md; the demo runs load on first start unless
        ASSUMEPROBE_DEMO=0.
      </p>
    </div>
  );
}
