import { exportResponse } from "@/app/_export/exportResponse";
import { decodeSegment } from "@/lib/runPath";

export const dynamic = "force-dynamic";

/**
 * The run as `assumeprobe export` prints it, under the run page's filter, as a JSONL download.
 * The name is read from the request's own path and decoded once: Next.js hands route handlers an
 * already decoded segment, and decoding that again read `%2541` as `A` and `100%25` as an error.
 */
export function GET(req: Request) {
  const url = new URL(req.url);
  const segment = url.pathname.split("/")[2] ?? "";
  return exportResponse(decodeSegment(segment), url.searchParams);
}
