import { decodeSegment } from "../runPath";
import { checkTraceFilter } from "../traceFilter";

/**
 * What is malformed in a request's path or query, by route, before any page or route handler
 * reads it (proxy.ts answers 400 with the message): encodings that do not decode, ids that cannot
 * filter values outside their vocabulary, parameters past their length. A request for something
 * that does not exist, or an id that cannot be one (`/traces/abc`), is the page's to answer: 404.
 */

/** Run names come from records, `--run` and file names: generous, but bounded. */
const RUN_NAME_MAX = 1000;

type Query = URLSearchParams;
type Check = (segments: string[], query: Query) => string | null;

const tooLong = (query: Query, limits: Record<string, number>): string | null => {
  for (const [key, max] of Object.entries(limits))
    for (const v of query.getAll(key)) if (v.length > max) return `${key} is longer than ${max} characters`;
  return null;
};

const filterError = (query: Query): string | null => {
  const r = checkTraceFilter(query);
  return r.ok ? null : r.error;
};

const runName = (name: string): string | null =>
  name.length > RUN_NAME_MAX ? `the run name is longer than ${RUN_NAME_MAX} characters` : null;

const required = (query: Query, key: string, what: string): string | null =>
  query.get(key) ? null : `${key} is missing (?${key}=${what})`;

/** Routes by their first path segment. */
const ROUTES: Record<string, Check> = {
  "": (_s, q) => tooLong(q, { model: 300, probe: 200, trend: 200, deleted: RUN_NAME_MAX }),
  runs: ([, name, sub], q) => {
    // `/runs` alone is the page that asks which run.
    if (name === undefined) {
      const n = q.get("name");
      return n ? (runName(n) ?? filterError(q)) : null;
    }
    if (sub !== undefined && sub !== "export") return null;
    return runName(name) ?? filterError(q);
  },
  // An id that cannot be an id names nothing: the page answers 404, as for any unknown id.
  traces: ([, id], q) => (id === undefined ? null : filterError(q)),
  probes: ([, id], q) => (id === undefined ? tooLong(q, { q: 200 }) : null),
  compare: (_s, q) => tooLong(q, { a: RUN_NAME_MAX, b: RUN_NAME_MAX }),
  api: ([, name], q) => (name === "export" ? (required(q, "run", "RUN") ?? filterError(q)) : null),
  login: (_s, q) => tooLong(q, { next: 2000 }),
};

/**
 * Whether each `%XX` of a query string decodes (as UTF-8). Next.js hands proxy.ts the query
 * already decoded and encoded again, with U+FFFD where a sequence did not decode: so U+FFFD is
 * read as such a sequence too (a search for that character itself is refused with it).
 */
function queryDecodes(rawSearch: string): boolean {
  for (const part of rawSearch.replace(/^\?/, "").split("&")) {
    if (part === "") continue;
    const decoded = decodeSegment(part.replaceAll("+", " "));
    if (decoded === null || decoded.includes("\uFFFD")) return false;
  }
  return true;
}

/**
 * The message for a malformed request, or null. `rawPath` and `rawSearch` are as sent
 * (percent-encoded), e.g. `new URL(req.url).pathname` and `.search`.
 */
export function requestProblem(rawPath: string, rawSearch: string): string | null {
  const raw = rawPath.split("/").slice(1);
  const segments: string[] = [];
  for (const s of raw) {
    const d = decodeSegment(s);
    if (d === null) return "the path is not valid percent-encoded UTF-8";
    segments.push(d);
  }
  if (!queryDecodes(rawSearch)) return "the query string is not valid percent-encoded UTF-8";
  const check = ROUTES[segments[0] ?? ""];
  return check ? check(segments, new URLSearchParams(rawSearch)) : null;
}
