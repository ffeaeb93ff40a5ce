import { getDb } from "@/db/client";
import { exportBatches, exportScope } from "@/db/queries/exportRun";
import { runExportFileName } from "@/lib/downloadName";
import { requestsInFlight } from "@/lib/http/serverState";
import { slicedJsonl } from "@/lib/http/slicedStream";
import { checkTraceFilter } from "@/lib/traceFilter";

const text = (status: number, message: string) =>
  new Response(`${message}\n`, { status, headers: { "content-type": "text/plain; charset=utf-8" } });

/**
 * A run's traces under the run page's filter, as `assumeprobe export` prints them: the whole
 * filter (paging parameters are ignored), streamed in slices that leave room for other requests.
 */
export function exportResponse(
  name: string | null,
  params: URLSearchParams,
  extra: readonly string[] = [],
): Response {
  if (name === null) return text(400, "bad request: the run name is not valid percent-encoded UTF-8");
  // A parameter the filter does not know would export the whole run as if filtered: refused.
  const checked = checkTraceFilter(params, { extra });
  if (!checked.ok) return text(400, `bad request: ${checked.error}`);
  const filter = { ...checked.filter, after: undefined, before: undefined };
  const db = getDb();
  const found = exportScope(db, name, filter);
  if (!found.ok)
    return text(found.status, found.status === 400 ? `bad request: ${found.error}` : found.error);
  const file = runExportFileName(name, { ...filter, field: found.scope.field });
  const inFlight = requestsInFlight();
  const othersBusy = inFlight === undefined ? undefined : () => (requestsInFlight() ?? 0) > 1;
  return new Response(slicedJsonl(exportBatches(db, found.scope, 50), { othersBusy }), {
    headers: {
      "content-type": "application/x-ndjson; charset=utf-8",
      "content-disposition": `attachment; filename="${file}"`,
      "cache-control": "no-store",
    },
  });
}
