/**
 * Finding one part of a big JSON text by its JSON Pointer (RFC 6901: `/tool_calls/0/arguments`)
 * without parsing the rest: each step passes over the container it is in, in slices (readJson).
 * A step into a string that holds JSON (arguments sent as a JSON string) reads on inside it.
 */
import { readJson } from "./readJson";

/** The segments of a JSON Pointer, or null when it is not one. */
export function parsePointer(pointer: string): string[] | null {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) return null;
  return pointer
    .slice(1)
    .split("/")
    .map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"));
}

export function toPointer(segments: readonly (string | number)[]): string {
  return segments.map((s) => `/${String(s).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}

export interface Located {
  /** The text the value is in (the whole text, or a JSON string's content it was found in). */
  text: string;
  start: number;
  end: number;
  /** The path went through a string holding JSON. */
  inString: boolean;
}

const NOTHING = { entries: 0, nodes: 0, depth: 1 };

/** Where the value at `segments` is, or null when the path names nothing. Throws on text that is not JSON. */
export async function locate(text: string, segments: readonly string[]): Promise<Located | null> {
  let at: Located = { text, start: 0, end: text.length, inString: false };
  for (const seg of segments) {
    let part = at.text.slice(at.start, at.end).trim();
    let inString = at.inString;
    if (part.startsWith('"')) {
      // A JSON string: read on inside its content when that is JSON.
      part = JSON.parse(part) as string;
      inString = true;
    }
    if (!part.startsWith("{") && !part.startsWith("[")) return null;
    const r = await readJson(part, NOTHING, { spans: new Set([seg]) });
    const span = r.spans.get(seg);
    if (!span) return null;
    at = { text: part, start: span[0], end: span[1], inString };
  }
  return at;
}
