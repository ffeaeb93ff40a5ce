import Link from "next/link";
import { getDb } from "@/db/client";
import { listProbes, syncBuiltinProbes } from "@/db/queries/probes";
import { uploadLimitBytes } from "@/lib/uploadContract";
import { UploadForm } from "./UploadForm";

export const metadata = { title: "Upload" };
export const dynamic = "force-dynamic";

export default function UploadPage() {
  const db = getDb();
  syncBuiltinProbes(db);
  const probes = listProbes(db)
    .filter((p) => !p.probe.id.startsWith("when2call:"))
    .map((p) => p.probe.id);
  return (
    <div className="max-w-3xl space-y-4">
      <div>
        <h1 className="text-xl font-semibold">Upload traces</h1>
        <p className="mt-1 text-sm text-slate-600">
          A trace file (gzip accepted): assumeprobe&apos;s JSONL, OTLP JSON, Phoenix spans, promptfoo results,
          an Inspect AI log (.eval or .json) or a Langfuse export (a trace&apos;s Download JSON, observations
          as JSON or JSONL), told apart by their content and ingested by the same code as{" "}
          <code className="font-mono">assumeprobe ingest</code>: re-uploading a file adds nothing, a grown
          file adds only its new records, and every bad line is reported with its line number while the good
          ones are kept. Every ingest, with its errors, is listed on{" "}
          <Link href="/ingests" className="text-indigo-700 underline">
            Ingests
          </Link>
          .
        </p>
      </div>
      <UploadForm probes={probes} maxBytes={uploadLimitBytes()} />
    </div>
  );
}
