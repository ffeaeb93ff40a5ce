import type { NormalizedResponse } from "./response";

/**
 * Fenced code in a reply's text (DESIGN.md, "Parsing is not scoring"): outside the seed's shape,
 * text inside a fenced code block never counts toward ask terms (a JSON call's key `city` is no
 * question). The blocks are blanked, not cut: every character but a line break becomes a space, so
 * offsets in the text stay where they were (the trace page highlights what counts in place).
 */

/** The end of the run of backticks at `i`. */
function runEnd(text: string, i: number): number {
  let j = i;
  while (text.charCodeAt(j) === 96) j++;
  return j;
}

/**
 * The text with every fenced code block (a run of three or more backticks to the next run at
 * least as long) blanked. A fence never closed is left as text. Linear in the text.
 */
export function blankFencedCode(text: string): string {
  let at = text.indexOf("```");
  if (at < 0) return text;
  const parts: string[] = [];
  let from = 0;
  while (at >= 0) {
    const open = runEnd(text, at);
    let close = text.indexOf("```", open);
    while (close >= 0 && runEnd(text, close) - close < open - at)
      close = text.indexOf("```", runEnd(text, close));
    if (close < 0) break;
    const end = runEnd(text, close);
    parts.push(text.slice(from, at), text.slice(at, end).replace(/[^\n\r]/g, " "));
    from = end;
    at = text.indexOf("```", end);
  }
  parts.push(text.slice(from));
  return parts.join("");
}

/**
 * The lower-cased text ask terms are looked for in: the whole text for the seed's shape (scored as
 * given), else the text with its fenced code blocks blanked.
 */
export function askingText(response: Pick<NormalizedResponse, "text" | "verbatim">): string {
  const lower = response.text ? response.text.toLowerCase() : "";
  return response.verbatim ? lower : blankFencedCode(lower);
}
