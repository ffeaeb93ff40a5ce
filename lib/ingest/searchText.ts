import type { NormalizedResponse } from "../probe/response";

const MAX = 16 * 1024;

/** What full-text search covers: the response text and every argument value of every call. */
export function searchText(response: NormalizedResponse): string {
  const parts: string[] = [];
  let size = 0;
  const add = (s: string) => {
    if (size >= MAX) return;
    parts.push(s);
    size += s.length + 1;
  };
  if (response.text) add(response.text);
  const visit = (v: unknown, depth: number): void => {
    if (size >= MAX || depth > 8) return;
    if (typeof v === "string") add(v);
    else if (typeof v === "number" || typeof v === "boolean") add(String(v));
    else if (Array.isArray(v)) for (const x of v) visit(x, depth + 1);
    else if (v && typeof v === "object") for (const x of Object.values(v)) visit(x, depth + 1);
  };
  for (const call of response.tool_calls) {
    if (!call || typeof call !== "object") continue;
    const c = call as { name?: unknown; arguments?: unknown };
    if (typeof c.name === "string") add(c.name);
    let args = c.arguments;
    if (typeof args === "string") {
      try {
        args = JSON.parse(args);
      } catch {
        add(args as string);
        continue;
      }
    }
    visit(args, 0);
  }
  const body = parts.join("\n");
  return body.length > MAX ? body.slice(0, MAX) : body;
}
