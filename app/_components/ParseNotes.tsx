import { Fragment, type ReactNode } from "react";
import { breakable } from "@/app/_components/Breakable";
import { Card } from "@/app/_components/Card";
import { CutNote } from "@/app/_components/SafeJsonBlock";
import { isObject } from "@/lib/isObject";
import {
  type BlockReading,
  type CallLikeBlock,
  callLikeNames,
  findCallLikeBlocks,
  readCallLikeBlock,
} from "@/lib/probe/callLike";
import type { CompiledProbe } from "@/lib/probe/compile";

/**
 * What the parser could not read, on the trace page: the call-like blocks behind `unparsed_call`
 * (each shown with the names it holds marked, and why it was not taken as a call), and the
 * payload behind `unrecognized_payload`. Nothing when neither flag is set.
 */
export function ParseNotes({
  text,
  flags,
  probe,
  raw,
}: {
  text: string | null;
  flags: readonly string[];
  probe: CompiledProbe | null;
  raw: unknown;
}) {
  const unparsed = flags.includes("unparsed_call") && probe !== null && text !== null;
  const unrecognized = flags.includes("unrecognized_payload");
  if (!unparsed && !unrecognized) return null;
  return (
    <div className="space-y-4" data-testid="parse-notes">
      {unparsed ? <CallLikeBlocks text={text} probe={probe} /> : null}
      {unrecognized ? <UnrecognizedPayload raw={raw} /> : null}
    </div>
  );
}

const SHOWN_BLOCKS = 10;
const SHOWN_CHARS = 4000;

const READING: Record<BlockReading["kind"], string> = {
  not_json: "does not parse as JSON",
  not_call: 'parses, but is not a call ({"name": …, "arguments": {…}})',
  call: "is a call, but not one the parser takes: only a provider payload's fenced JSON blocks are",
  too_large: "too large to check here",
};

function CallLikeBlocks({ text, probe }: { text: string; probe: CompiledProbe }) {
  const names = callLikeNames(probe);
  const blocks = findCallLikeBlocks(text, names, SHOWN_BLOCKS + 1);
  return (
    <Card
      title="Call-like text the parser did not take"
      className="border-amber-300"
      aside={<span className="flag">unparsed_call</span>}
    >
      <p className="text-sm text-slate-700">
        No call was taken, but the text holds {blocks.length > SHOWN_BLOCKS ? "more than " : ""}
        {Math.min(blocks.length, SHOWN_BLOCKS)} block{blocks.length === 1 ? "" : "s"} naming the tool or a
        probed field. The scorer reads {blocks.length === 1 ? "it" : "them"} as text, so{" "}
        {blocks.length === 1 ? "its" : "their"} keys can count as ask terms: check the labels by hand.
      </p>
      <ol className="mt-3 space-y-3">
        {blocks.slice(0, SHOWN_BLOCKS).map((b) => (
          <Block key={b.start} text={text} block={b} />
        ))}
      </ol>
    </Card>
  );
}

function Block({ text, block }: { text: string; block: CallLikeBlock }) {
  const reading = readCallLikeBlock(text, block);
  const shown = text.slice(block.start, Math.min(block.end, block.start + SHOWN_CHARS));
  return (
    <li data-testid="call-like-block" data-kind={block.kind} data-reading={reading.kind}>
      <p className="text-xs text-slate-600">
        <span className="font-medium text-slate-800">
          {block.kind === "fenced" ? "Fenced block" : "JSON-looking object"}
        </span>
        , characters {(block.start + 1).toLocaleString("en-US")}–{block.end.toLocaleString("en-US")}: it{" "}
        {READING[reading.kind]}
        {reading.kind === "not_json" ? (
          <span className="font-mono text-amber-900 [overflow-wrap:anywhere]"> ({reading.error})</span>
        ) : null}
        . Names <span className="font-mono">{block.names.join(", ")}</span>.
      </p>
      <pre
        className="mt-1 max-h-64 overflow-auto rounded border-l-4 border-amber-400 bg-amber-50 p-2 font-mono text-xs [overflow-wrap:anywhere] whitespace-pre-wrap"
        data-testid="call-like-text"
      >
        {markNames(shown, block.names)}
      </pre>
      {block.end - block.start > SHOWN_CHARS ? (
        <CutNote>{`shown to ${SHOWN_CHARS.toLocaleString("en-US")} of ${(block.end - block.start).toLocaleString("en-US")} characters`}</CutNote>
      ) : null}
    </li>
  );
}

/** The text with each name it holds (ignoring case, at word boundaries) in <mark>. */
function markNames(text: string, names: readonly string[]): ReactNode {
  if (names.length === 0) return breakable(text);
  const escaped = names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const re = new RegExp(`(?<![A-Za-z0-9_])(?:${escaped.join("|")})(?![A-Za-z0-9_])`, "gi");
  const out: ReactNode[] = [];
  let at = 0;
  for (const m of text.matchAll(re)) {
    const i = m.index ?? 0;
    if (i > at) out.push(<Fragment key={`t${at}`}>{breakable(text.slice(at, i))}</Fragment>);
    out.push(
      <mark
        key={`m${i}`}
        className="rounded-sm bg-yellow-200 px-0.5 font-semibold"
        data-testid="call-like-name"
      >
        {m[0]}
      </mark>,
    );
    at = i + m[0].length;
  }
  if (at < text.length) out.push(<Fragment key={`t${at}`}>{breakable(text.slice(at))}</Fragment>);
  return out;
}

/** Keys that tell which service a payload came from, for a hint beside the unrecognized one. */
const FORMAT_HINTS: [string, (v: Record<string, unknown>) => boolean][] = [
  ["Google Gemini (candidates[].content.parts)", (v) => Array.isArray(v.candidates)],
  [
    "Amazon Bedrock Converse (output.message.content)",
    (v) => isObject(v.output) && isObject(v.output.message),
  ],
  ["Ollama's /api/chat (message, done)", (v) => isObject(v.message) && "done" in v],
  ["Cohere Chat v2 (message, finish_reason)", (v) => isObject(v.message) && "finish_reason" in v],
  ["an error body (error)", (v) => "error" in v],
];

function UnrecognizedPayload({ raw }: { raw: unknown }) {
  const keys = isObject(raw) ? Object.keys(raw) : [];
  const hint = isObject(raw) ? FORMAT_HINTS.find(([, test]) => test(raw))?.[0] : undefined;
  const kind =
    raw === undefined
      ? "none"
      : Array.isArray(raw)
        ? "an array"
        : typeof raw === "string"
          ? "a string"
          : "an object";
  return (
    <Card
      title="A payload the parser does not know"
      className="border-amber-300"
      aside={<span className="flag">unrecognized_payload</span>}
    >
      <div data-testid="unrecognized-payload">
        <p className="text-sm text-slate-700">
          The raw payload is in none of the formats the parser reads (OpenAI chat completions, the Responses
          API, Anthropic Messages, Gemini, Bedrock Converse, Cohere v2, Ollama, the seed's trace shape), so no
          call could be looked for in it. A DRIFT here says nothing about the model: the answer was not read.
        </p>
        <p className="mt-2 text-xs text-slate-600">
          It is {kind}
          {keys.length > 0 ? (
            <>
              {" "}
              with the keys{" "}
              <span className="font-mono [overflow-wrap:anywhere]" data-testid="payload-keys">
                {keys.slice(0, 20).join(", ")}
                {keys.length > 20 ? ", …" : ""}
              </span>
            </>
          ) : null}
          {hint ? (
            <>
              ; it looks like <span data-testid="payload-hint">{hint}</span>
            </>
          ) : null}
          . See the raw payload below.
        </p>
      </div>
    </Card>
  );
}
