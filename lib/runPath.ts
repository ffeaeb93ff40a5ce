/**
 * Where a run lives in the dashboard. A run's name is one URL path segment (`/runs/NAME`), except
 * `.` and `..`: every browser, curl and Next.js itself remove those as dot segments (`%2E` too),
 * so those two runs live at `/runs?name=NAME` and export from `/api/export?run=NAME`.
 */
const DOT_NAMES = new Set([".", ".."]);

function withQuery(path: string, params?: URLSearchParams | string): string {
  const q = params === undefined ? "" : String(params);
  return q ? `${path}${path.includes("?") ? "&" : "?"}${q}` : path;
}

/** The run page of `name`, with filter parameters when given. */
export function runHref(name: string, params?: URLSearchParams | string): string {
  const path = DOT_NAMES.has(name)
    ? `/runs?${new URLSearchParams({ name })}`
    : `/runs/${encodeURIComponent(name)}`;
  return withQuery(path, params);
}

/** The JSONL export of `name` under filter parameters. */
export function runExportHref(name: string, params?: URLSearchParams | string): string {
  const path = DOT_NAMES.has(name)
    ? `/api/export?${new URLSearchParams({ run: name })}`
    : `/runs/${encodeURIComponent(name)}/export`;
  return withQuery(path, params);
}

/** Whether a run's name has a path form (all but `.` and `..`). */
export function hasRunPath(name: string): boolean {
  return !DOT_NAMES.has(name);
}

/** One percent-decoding of a URL path segment; null when it is not valid (bad escapes, bad UTF-8). */
export function decodeSegment(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}
