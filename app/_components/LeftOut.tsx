import Link from "next/link";
import { type Cut, leftOut } from "@/lib/budget/jsonBudget";

const n = (x: number) => x.toLocaleString("en-US");

/** Where the rest of a cut part of a trace is: a paged view, and the record as a download. */
export interface MoreLinks {
  /** A paged view of the entries (bounded per request). */
  moreHref?: string;
  /** The original record (or the part) as a download. */
  downloadHref?: string;
  downloadLabel?: string;
}

/**
 * What a table or block shows of a part that was cut to the page's budget: "showing 202 of
 * 500,002 arguments", with a link to page through the rest and a download. A word and an icon,
 * not just a colour, like every cut note.
 */
export function LeftOutNote({
  cut,
  noun,
  kept,
  testId = "left-out",
  ...links
}: {
  cut: Cut;
  /** Plural noun of the entries: "arguments", "facts". */
  noun: string;
  /** Which entries are shown beyond the first ones, in words. */
  kept?: string;
} & MoreLinks & { testId?: string }) {
  const rest = leftOut(cut);
  return (
    <p
      className="mt-2 flex flex-wrap items-baseline gap-x-3 gap-y-1 rounded border border-amber-300 bg-amber-50 px-2 py-1.5 text-xs text-amber-900"
      data-testid={testId}
      data-total={cut.total ?? ""}
      data-shown={cut.shown}
    >
      <span>
        <span aria-hidden="true">✂ </span>
        <span className="font-semibold">cut:</span> showing {n(cut.shown)}
        {cut.total === null ? "" : ` of ${n(cut.total)}`} {noun}
        {kept ? ` (${kept})` : ""}
        {rest !== null ? `; ${n(rest)} not shown here` : "; the rest was not read"}
      </span>
      <MoreLinkRow {...links} />
    </p>
  );
}

export function MoreLinkRow({ moreHref, downloadHref, downloadLabel = "download the record" }: MoreLinks) {
  return (
    <>
      {moreHref ? (
        <Link
          href={moreHref}
          className="font-medium text-indigo-700 underline"
          data-testid="show-more"
          prefetch={false}
        >
          show more <span aria-hidden="true">→</span>
        </Link>
      ) : null}
      {downloadHref ? (
        <a
          href={downloadHref}
          className="font-medium text-indigo-700 underline"
          data-testid="download-record"
          download
        >
          <span aria-hidden="true">⤓ </span>
          {downloadLabel}
        </a>
      ) : null}
    </>
  );
}
