import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import { Ident } from "@/app/_components/Breakable";
import { getDb } from "@/db/client";
import { recentRuns } from "@/db/queries/runs";
import { hasRunPath, runHref } from "@/lib/runPath";
import RunPage, { generateMetadata as runMetadata } from "./[name]/page";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const nameOf = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

/** How many runs the "which run?" page lists (the overview has them all). */
const LISTED = 20;

/** Rebuilds the run page's props for a name given as `?name=`. */
async function asRunPage({ searchParams }: Props) {
  const { name: raw, ...rest } = await searchParams;
  const name = nameOf(raw);
  return {
    name,
    props: {
      params: Promise.resolve({ name: encodeURIComponent(name) }),
      searchParams: Promise.resolve(rest),
    },
  };
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { name, props: runProps } = await asRunPage(props);
  if (name === "") return { title: "Which run?" };
  return runMetadata(runProps);
}

/**
 * `/runs?name=NAME`: the run page of a run whose name no URL path can hold (`.` and `..`, see
 * lib/runPath.ts). Any other name is sent to its own path, so each run has one address; no name
 * at all asks which run, listing the newest.
 */
export default async function RunByQueryPage(props: Props) {
  const { name, props: runProps } = await asRunPage(props);
  if (name === "") return <WhichRun />;
  if (hasRunPath(name)) {
    const rest = new URLSearchParams();
    for (const [k, v] of Object.entries(await runProps.searchParams))
      for (const x of Array.isArray(v) ? v : v === undefined ? [] : [v]) rest.append(k, x);
    redirect(runHref(name, rest));
  }
  return RunPage(runProps);
}

async function WhichRun() {
  await connection();
  const { runs, total } = recentRuns(getDb(), LISTED);
  return (
    <div className="max-w-3xl space-y-4" data-testid="which-run">
      <h1 className="text-xl font-semibold">Which run?</h1>
      {runs.length === 0 ? (
        <p className="text-sm text-slate-700">
          There are no runs yet.{" "}
          <Link href="/upload" className="text-indigo-700 underline">
            Upload a trace file
          </Link>{" "}
          or ingest one from the command line (<code>assumeprobe ingest FILE</code>).
        </p>
      ) : (
        <>
          <p className="text-sm text-slate-700">
            This address shows one run, named by <code>?name=</code>. The{" "}
            {runs.length < total
              ? `${runs.length} of ${total} runs last written`
              : "runs, last written first"}
            :
          </p>
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
            {runs.map((r) => (
              <li key={r.id}>
                <Link
                  href={runHref(r.name)}
                  className="flex min-h-11 flex-wrap items-baseline justify-between gap-x-3 px-3 py-2 hover:bg-slate-50"
                  data-testid="run-choice"
                >
                  <Ident text={r.name} className="font-mono text-sm text-indigo-700" />
                  <span className="text-xs text-slate-600">
                    {r.traceCount.toLocaleString("en-US")} traces
                    {r.model ? (
                      <>
                        {" "}
                        · <span className="font-mono">{r.model}</span>
                      </>
                    ) : null}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
      <p className="text-sm">
        <Link href="/" className="inline-block py-1 text-indigo-700 underline">
          Every run, with its figures, on the overview
        </Link>
      </p>
    </div>
  );
}
