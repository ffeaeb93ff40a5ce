import { breakable } from "./Breakable";
import { MoreLinkRow, type MoreLinks } from "./LeftOut";
import { type SafeJsonOptions, safeJson } from "./safeJson";

/**
 * Untrusted JSON as inert, wrapped text with visible cut notes: nesting and length are capped,
 * so no record can stall the page. React escapes the text; nothing in it becomes markup.
 */
export function SafeJsonBlock({
  value,
  testId,
  links,
  ...opts
}: { value: unknown; testId?: string; links?: MoreLinks } & SafeJsonOptions) {
  const r = safeJson(value, opts);
  const notes: string[] = [];
  if (r.entriesCut) notes.push("long objects and arrays show their first entries, with a count of the rest");
  if (r.depthCut) notes.push(`nesting deeper than ${opts.maxDepth ?? 40} levels is cut`);
  if (r.stringCut) notes.push("long strings are cut");
  if (r.charsCut) notes.push(`cut at ${(opts.maxChars ?? 100_000).toLocaleString("en-US")} characters`);
  return (
    <div data-testid={testId}>
      <pre className="max-h-[32rem] overflow-auto rounded border border-slate-200 bg-slate-50 p-3 font-mono text-xs [overflow-wrap:anywhere] whitespace-pre-wrap text-slate-800">
        {breakable(r.text)}
      </pre>
      {notes.length > 0 ? (
        <CutNote>
          {notes.join("; ")}
          {links ? (
            <span className="ml-2 inline-flex gap-3">
              <MoreLinkRow {...links} />
            </span>
          ) : null}
        </CutNote>
      ) : null}
    </div>
  );
}

/** "Cut" notes look the same everywhere: a word and an icon, not just a colour. */
export function CutNote({ children }: { children: React.ReactNode }) {
  return (
    <p className="mt-1 text-xs text-amber-800" data-testid="cut-note">
      <span aria-hidden="true">✂ </span>
      <span className="font-semibold">cut:</span> {children}
    </p>
  );
}
