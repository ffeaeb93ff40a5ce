import Link from "next/link";
import { getDb } from "@/db/client";
import { markInterruptedIngests } from "@/db/queries/ingestBatches";
import { listIngests } from "@/db/queries/ingestList";
import { IngestCard } from "./IngestCard";

export const metadata = { title: "Ingests" };
export const dynamic = "force-dynamic";

const PAGE = 25;

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** Recent ingests (command line, uploads, demo data), newest first, with their counts, status and errors. */
export default async function IngestsPage({ searchParams }: Props) {
  const sp = await searchParams;
  const raw = Array.isArray(sp.before) ? sp.before[0] : sp.before;
  const before = raw && /^\d{1,15}$/.test(raw) ? Number(raw) : undefined;
  const db = getDb();
  // An ingest whose process died is shown as interrupted, not running forever.
  markInterruptedIngests(db);
  const { rows, more } = listIngests(db, { before, limit: PAGE });
  return (
    <div className="max-w-4xl space-y-4">
      <div>
        <h1 className="text-xl font-semibold">Ingests</h1>
        <p className="mt-1 text-sm text-slate-600">
          Every ingest, newest first: from the command line (
          <code className="font-mono">assumeprobe ingest</code>), an upload, or the demo data. Rejected
          records count against the run their file&apos;s good records went to; those of a file that sent none
          are listed with their ingest only.
        </p>
      </div>
      {rows.length === 0 ? (
        <p
          className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-600"
          data-testid="no-ingests"
        >
          {before ? "No older ingests." : "Nothing has been ingested yet."}{" "}
          <Link href="/upload" className="text-indigo-700 underline">
            Upload a file
          </Link>{" "}
          or run <code className="font-mono">npx assumeprobe ingest FILE</code>.
        </p>
      ) : (
        <ul className="space-y-2" data-testid="ingest-list">
          {rows.map((g) => (
            <IngestCard key={g.id} ingest={g} linkErrors />
          ))}
        </ul>
      )}
      <nav className="flex justify-between text-sm" aria-label="Pages">
        {before ? (
          <Link href="/ingests" className="text-indigo-700 underline">
            ← Newest
          </Link>
        ) : (
          <span />
        )}
        {more ? (
          <Link
            href={`/ingests?before=${rows[rows.length - 1].id}`}
            className="text-indigo-700 underline"
            data-testid="older-ingests"
          >
            Older ingests →
          </Link>
        ) : null}
      </nav>
    </div>
  );
}
