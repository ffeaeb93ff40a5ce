import { Fragment, type ReactNode } from "react";

/** Longest run of non-space characters left without a break opportunity. */
const RUN = 48;

/**
 * Text with a <wbr> after every RUN non-space characters. Chromium lays out one long unbroken
 * word under `overflow-wrap` or `word-break: break-all` in time that grows with the square of its
 * length (a 100 KB token took 40–90 s); with break opportunities every few dozen characters it
 * takes milliseconds. <wbr> adds no characters, so copied text stays exactly the value.
 */
export function breakable(text: string, run = RUN): ReactNode {
  if (text.length <= run) return text;
  let out: ReactNode[] | null = null;
  let start = 0;
  let len = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 9 || c === 13) {
      len = 0;
      continue;
    }
    len++;
    // Never split a surrogate pair.
    if (len >= run && !(c >= 0xd800 && c <= 0xdbff)) {
      if (out === null) out = [];
      out.push(text.slice(start, i + 1), <wbr key={i} />);
      start = i + 1;
      len = 0;
    }
  }
  if (out === null) return text;
  out.push(text.slice(start));
  return <Fragment>{out}</Fragment>;
}

/** Where an identifier may break: after a path, word or namespace separator. */
export const IDENTIFIER_BREAKS = "/-_:";

/** Identifiers longer than this are cut with an ellipsis (the full value stays in the title). */
const IDENT_MAX = 400;

/**
 * An identifier (run name, probe id, model, field, trace id) with a <wbr> after each `/`, `-`,
 * `_` and `:`, so it wraps between its parts and never mid-word (`plover-lite-2/`, `nightly-`,
 * `2026-11-29`); a part longer than RUN characters gets a break every RUN characters, as
 * breakable() does. Rendered by <Ident>, whose `.ident` class (globals.css) keeps the browser
 * from breaking elsewhere unless one part alone is wider than its box.
 */
export function identifier(text: string): ReactNode {
  const out: ReactNode[] = [];
  let start = 0;
  let len = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    len++;
    const sep = IDENTIFIER_BREAKS.includes(text[i]);
    if ((sep || len >= RUN) && i < text.length - 1 && !(c >= 0xd800 && c <= 0xdbff)) {
      out.push(text.slice(start, i + 1), <wbr key={i} />);
      start = i + 1;
      len = 0;
    }
  }
  if (out.length === 0) return text;
  out.push(text.slice(start));
  return <Fragment>{out}</Fragment>;
}

/** An identifier as inline text that wraps only between its parts (see identifier()). */
export function Ident({
  text,
  className = "",
  max = IDENT_MAX,
  testId,
}: {
  text: string;
  className?: string;
  max?: number;
  testId?: string;
}) {
  const cut = text.length > max;
  return (
    <span className={`ident ${className}`} title={cut ? text : undefined} data-testid={testId}>
      {identifier(cut ? `${text.slice(0, max)}…` : text)}
    </span>
  );
}
