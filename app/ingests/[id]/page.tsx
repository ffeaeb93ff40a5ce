import Link from "next/link";
import { notFound } from "next/navigation";
import { Card } from "@/app/_components/Card";
import { getDb } from "@/db/client";
import { markInterruptedIngests } from "@/db/queries/ingestBatches";
import { getIngest, listIngestErrors } from "@/db/queries/ingestList";
import { firstParam as one } from "@/lib/http/searchParam";
import { runHref } from "@/lib/runPath";
import { IngestCard } from "../IngestCard";

export const dynamic = "force-dynamic";

const PAGE = 100;

type Props = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Props) {
  return { title: `Ingest #${(await params).id}` };
}

/** The cursor of the next page of errors: `file`, `line` and `id` of the last one shown. */
function cursor(sp: Record<string, string | string[] | undefined>) {
  const file = one(sp.file);
  const line = Number(one(sp.line));
  const id = Number(one(sp.err));
  if (file === undefined || !Number.isSafeInteger(line) || !Number.isSafeInteger(id)) return undefined;
  return { file, line, id };
}

/** One ingest and its rejected records, in reading order. */
export default async function IngestPage({ params, searchParams }: Props) {
  const raw = (await params).id;
  if (!/^\d{1,15}$/.test(raw)) notFound();
  const db = getDb();
  markInterruptedIngests(db);
  const ingest = getIngest(db, Number(raw));
  if (!ingest) notFound();
  const after = cursor(await searchParams);
  const { rows, more } = listIngestErrors(db, ingest.id, { after, limit: PAGE });
  const last = rows.at(-1);
  const next = last
    ? `/ingests/${ingest.id}?${new URLSearchParams({ file: last.file, line: String(last.line), err: String(last.id) })}#errors`
    : null;
  return (
    <div className="max-w-4xl space-y-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-xl font-semibold">Ingest #{ingest.id}</h1>
        <Link href="/ingests" className="text-sm text-indigo-700 underline">
          All ingests
        </Link>
      </div>
      <ul>
        <IngestCard ingest={ingest} linkErrors={false} />
      </ul>
      <Card title={`Rejected records (${ingest.rejected.toLocaleString("en-US")})`}>
        <div id="errors" />
        {ingest.rejected > ingest.storedErrors ? (
          <p className="mb-2 text-xs text-slate-500">
            {(ingest.rejected - ingest.storedErrors).toLocaleString("en-US")} of them are no longer stored: a
            later ingest stored their line whole, or their run was deleted.
          </p>
        ) : null}
        {rows.length === 0 ? (
          <p className="text-sm text-slate-600">
            {after ? "No more rejected records." : "None are stored with this ingest."}
          </p>
        ) : (
          <ul className="space-y-1 font-mono text-xs" data-testid="ingest-errors">
            {rows.map((e) => (
              <li key={e.id}>
                <details>
                  <summary className="cursor-pointer break-words">
                    <span className="text-slate-500">
                      {e.file} line {e.line}:
                    </span>{" "}
                    <span className="text-red-800">{e.reason}</span>{" "}
                    {e.run ? (
                      <Link href={runHref(e.run)} className="text-indigo-700 underline">
                        run {e.run}
                      </Link>
                    ) : (
                      <span className="text-slate-500">(no run)</span>
                    )}
                    {/no probe offers|several probes offer/.test(e.reason) ? (
                      <Link
                        href={`/probes/new?rejected=${e.id}`}
                        className="ml-2 font-sans text-indigo-700 underline"
                        data-testid="make-probe-from-rejected"
                      >
                        make a probe from this
                      </Link>
                    ) : null}
                  </summary>
                  <pre className="mt-1 max-h-40 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-2 text-slate-700">
                    {e.raw === "" ? "(no text)" : e.raw}
                    {e.cut ? "…" : null}
                  </pre>
                </details>
              </li>
            ))}
          </ul>
        )}
        {more && next ? (
          <p className="mt-2 text-right text-sm">
            <Link href={next} className="text-indigo-700 underline" data-testid="more-errors">
              More rejected records →
            </Link>
          </p>
        ) : null}
      </Card>
    </div>
  );
}
