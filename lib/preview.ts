import type { NormalizedResponse } from "./probe/response";

function short(v: unknown, max: number): string {
  let s: string;
  if (typeof v === "string") s = JSON.stringify(v);
  else {
    try {
      s = JSON.stringify(v) ?? String(v);
    } catch {
      s = String(v);
    }
  }
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** One line that says what the model did: its call with arguments, else its text. */
export function responsePreview(r: NormalizedResponse, max = 160): string {
  const first = r.tool_calls.find((c) => c && typeof c === "object" && !Array.isArray(c)) as
    | { name?: unknown; arguments?: unknown }
    | undefined;
  let call = "";
  if (first) {
    let args = first.arguments;
    if (typeof args === "string") {
      try {
        args = JSON.parse(args);
      } catch {
        // keep the string as the model sent it
      }
    }
    const name = typeof first.name === "string" && first.name ? first.name : "(unnamed)";
    const inner =
      args && typeof args === "object" && !Array.isArray(args)
        ? Object.entries(args)
            .map(([k, v]) => `${k}=${short(v, 40)}`)
            .join(", ")
        : short(args, 60);
    call = `${name}(${inner})`;
  }
  const text = (r.text ?? "").replace(/\s+/g, " ").trim();
  const out = call && text ? `${call} · “${text}”` : call || (text ? `“${text}”` : "(empty response)");
  return out.length > max ? `${out.slice(0, max - 1)}…` : out;
}
