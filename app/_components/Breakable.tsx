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
