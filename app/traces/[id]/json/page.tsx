import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { InlineValue } from "@/app/_components/ArgumentMarks";
import { Card } from "@/app/_components/Card";
import { CardTableHead } from "@/app/_components/CardTableHead";
import { getDb } from "@/db/client";
import { getTraceTexts, originalBody, parseTraceId } from "@/db/queries/traceDetail";
import { cutOf } from "@/lib/budget/jsonBudget";
import { locate, parsePointer, toPointer } from "@/lib/budget/pointer";
import { readJson } from "@/lib/budget/readJson";
import { firstParam as one } from "@/lib/http/searchParam";
import type { TracePart } from "../links";

type Props = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/** Entries per page: every request reads one page of a part, whatever its size. */
const PAGE = 200;
const PART_WORDS: Record<TracePart, string> = { record: "original record", response: "scored response" };
const n = (x: number) => x.toLocaleString("en-US");

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const id = parseTraceId((await params).id);
  return { title: id === null ? "Not found" : `Trace ${id}: record parts` };
}

/** A JSON string holding an object or array (arguments sent as a string): opened as JSON. */
function holdsJson(v: unknown): boolean {
  return typeof v === "string" && /^\s*[[{]/.test(v);
}

/**
 * One page of one part of a trace's record (or of its scored response): the entries of the
 * object or array at a JSON Pointer, 200 at a time, each openable. This is the "show more" of
 * every part the trace page cuts; each request reads one page, found by passing over the text.
 */
export default async function TraceJsonPage({ params, searchParams }: Props) {
  await connection();
  const id = parseTraceId((await params).id);
  if (id === null) notFound();
  const sp = await searchParams;
  const part = (one(sp.part) ?? "record") as TracePart;
  const segments = parsePointer(one(sp.path) ?? "");
  const from = Number(one(sp.from) ?? "0");
  if (!(part in PART_WORDS) || segments === null || !Number.isSafeInteger(from) || from < 0) notFound();
  const row = getTraceTexts(getDb(), id);
  if (!row) notFound();
  const text = part === "record" ? originalBody(row.original) : row.response;

  let problem: string | null = null;
  let value: unknown;
  let readInString = false;
  try {
    const at = await locate(text, segments);
    if (at === null) problem = "nothing is at this path";
    else {
      let valueText = at.text.slice(at.start, at.end);
      readInString = at.inString;
      if (valueText.trimStart().startsWith('"')) {
        const s = JSON.parse(valueText) as string;
        if (holdsJson(s)) {
          valueText = s;
          readInString = true;
        }
      }
      value = (await readJson(valueText, { entries: PAGE, nodes: PAGE * 10, depth: 3, from })).value;
    }
  } catch (e) {
    problem = `the text does not read as JSON here: ${e instanceof Error ? e.message : String(e)}`;
  }

  const base = `/traces/${id}/json`;
  const href = (path: (string | number)[], at = 0) => {
    const q = new URLSearchParams({ part });
    if (path.length > 0) q.set("path", toPointer(path));
    if (at > 0) q.set("from", String(at));
    return `${base}?${q}`;
  };
  const isContainer = typeof value === "object" && value !== null;
  const isArray = Array.isArray(value);
  const entries: [string, unknown][] = isContainer
    ? isArray
      ? (value as unknown[]).map((v, i) => [String(from + i), v])
      : Object.entries(value as Record<string, unknown>)
    : [];
  const cut = cutOf(value);
  const total = cut?.total ?? from + entries.length;

  return (
    <div className="space-y-4" data-testid="trace-json-page">
      <nav aria-label="Breadcrumb" className="text-sm [overflow-wrap:anywhere] text-slate-600">
        <Link href={`/traces/${id}`} className="text-indigo-700 hover:underline" data-testid="trace-back">
          trace #{id}
        </Link>
        <span aria-hidden="true"> › </span>
        <Link href={href([])} className="hover:underline">
          {PART_WORDS[part]}
        </Link>
        {segments.map((s, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a path's segments are positional and can repeat
          <span key={i}>
            <span aria-hidden="true"> › </span>
            <Link href={href(segments.slice(0, i + 1))} className="font-mono hover:underline">
              {s.length > 60 ? `${s.slice(0, 60)}…` : s}
            </Link>
          </span>
        ))}
      </nav>
      <Card
        title={`Part of the ${PART_WORDS[part]}`}
        aside={
          <a href={`/traces/${id}/record`} download className="text-xs text-indigo-700 underline">
            <span aria-hidden="true">⤓ </span>download the record
          </a>
        }
      >
        {problem ? (
          <p className="text-sm text-amber-900" role="alert" data-testid="json-problem">
            {problem}.
          </p>
        ) : !isContainer ? (
          <div data-testid="json-scalar">
            <InlineValue value={value} max={20_000} />
          </div>
        ) : (
          <>
            <p className="mb-2 text-sm text-slate-700" data-testid="json-summary" data-total={total}>
              {isArray ? "An array" : "An object"} of {n(total)} {isArray ? "items" : "keys"}
              {readInString ? " (a JSON string, read as JSON)" : ""}
              {total > 0 ? `; entries ${n(Math.min(from + 1, total))}–${n(from + entries.length)} here` : ""}.
            </p>
            <div className="overflow-x-auto">
              <table className="w-full text-sm" data-testid="json-entries">
                <CardTableHead roomy columns={[isArray ? "Index" : "Key", "Value"]} />
                <tbody>
                  {entries.map(([k, v]) => (
                    <tr
                      key={k}
                      className="border-b border-slate-100 align-top last:border-0"
                      data-testid="json-entry"
                    >
                      <th
                        scope="row"
                        className="max-w-[16rem] py-1.5 pr-3 text-left font-mono font-normal [overflow-wrap:anywhere] text-slate-700"
                      >
                        {(typeof v === "object" && v !== null) || holdsJson(v) ? (
                          <Link href={href([...segments, k])} className="text-indigo-700 hover:underline">
                            {k.length > 200 ? `${k.slice(0, 200)}…` : k}
                          </Link>
                        ) : k.length > 200 ? (
                          `${k.slice(0, 200)}…`
                        ) : (
                          k
                        )}
                      </th>
                      <td className="max-w-[40rem] py-1.5 pr-3">
                        <InlineValue value={v} max={300} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <nav className="mt-3 flex gap-2 text-sm" aria-label="Pages">
              {from > 0 ? (
                <Link
                  href={href(segments, Math.max(0, from - PAGE))}
                  className="rounded border px-2.5 py-1"
                  rel="prev"
                >
                  ← Previous {PAGE}
                </Link>
              ) : null}
              {from + entries.length < total ? (
                <Link
                  href={href(segments, from + entries.length)}
                  className="rounded border px-2.5 py-1"
                  rel="next"
                  data-testid="json-next"
                >
                  Next {PAGE} →
                </Link>
              ) : null}
            </nav>
          </>
        )}
      </Card>
    </div>
  );
}
