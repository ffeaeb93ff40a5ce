import type { MoreLinks } from "@/app/_components/LeftOut";
import { toPointer } from "@/lib/budget/pointer";

/** The stored texts of a trace a paged view can read: the original record, or the scored response. */
export type TracePart = "record" | "response";

/** Where the rest of a cut part of trace `id` is: its paged view at `path`, and the record's download. */
export function traceLinks(id: number, part: TracePart, path: (string | number)[] = []): MoreLinks {
  const q = new URLSearchParams({ part });
  if (path.length > 0) q.set("path", toPointer(path));
  return { moreHref: `/traces/${id}/json?${q}`, downloadHref: `/traces/${id}/record` };
}
