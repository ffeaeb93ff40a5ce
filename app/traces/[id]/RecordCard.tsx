import { breakable } from "@/app/_components/Breakable";
import { Card } from "@/app/_components/Card";
import { CutNote, SafeJsonBlock } from "@/app/_components/SafeJsonBlock";
import type { TraceDetail } from "@/db/queries/traceDetail";
import { SHOWN_STRING } from "@/lib/budget/jsonBudget";
import { traceLinks } from "./links";
import { RecordDownloads } from "./RecordDownloads";

/** Characters of each JSON panel; the whole record is a download away. */
const SHOWN_JSON = 20_000;

/** The card of the bytes behind the trace: the provider's raw payload, the original record, what was scored. */
export function RecordCard({ t }: { t: TraceDetail }) {
  const raw = t.reread.raw;
  const w2c = t.reread.when2call;
  return (
    <Card
      title="Raw payload and original record"
      aside={<RecordDownloads id={t.id} bytes={t.original.bytes} raw={raw !== undefined} />}
    >
      <div className="space-y-2">
        <details className="text-sm" data-testid="raw-details">
          <summary className="cursor-pointer font-medium text-slate-700">
            Raw provider payload{raw === undefined ? " (none: the record gave the response directly)" : ""}
          </summary>
          <div className="mt-2">
            {raw !== undefined ? (
              <SafeJsonBlock
                value={raw}
                maxChars={SHOWN_JSON}
                testId="raw-json"
                links={traceLinks(t.id, "record", t.form === "payload" ? [] : ["raw"])}
              />
            ) : null}
          </div>
        </details>
        <details className="text-sm" data-testid="original-details">
          <summary className="cursor-pointer font-medium text-slate-700">
            Original record, formatted ({t.original.bytes.toLocaleString("en-US")} bytes
            {w2c ? "; a When2Call line, shared by its four answers" : ""})
          </summary>
          <div className="mt-2">
            {t.original.parseError === null ? (
              <SafeJsonBlock
                value={t.original.parsed}
                maxChars={SHOWN_JSON}
                testId="original-json"
                links={traceLinks(t.id, "record")}
              />
            ) : (
              <p className="text-sm text-amber-900">
                It does not parse as JSON here: {t.original.parseError}
              </p>
            )}
          </div>
        </details>
        <details className="text-sm" data-testid="original-text-details">
          <summary className="cursor-pointer font-medium text-slate-700">
            Original record, as stored
            {t.original.binary ? " (not UTF-8: shown with replacement characters)" : ""}
          </summary>
          <div className="mt-2">
            <pre
              className="max-h-[32rem] overflow-auto rounded border border-slate-200 bg-slate-50 p-3 font-mono text-xs [overflow-wrap:anywhere] whitespace-pre-wrap"
              data-testid="original-text"
            >
              {breakable(
                t.original.text.length > SHOWN_STRING
                  ? t.original.text.slice(0, SHOWN_STRING)
                  : t.original.text,
              )}
            </pre>
            {t.original.text.length > SHOWN_STRING ? (
              <CutNote>{`shown to ${SHOWN_STRING.toLocaleString("en-US")} of ${t.original.text.length.toLocaleString("en-US")} characters; download the record for all of it`}</CutNote>
            ) : null}
          </div>
        </details>
        <details className="text-sm">
          <summary className="cursor-pointer font-medium text-slate-700">
            Normalized response (what was scored)
          </summary>
          <div className="mt-2">
            <SafeJsonBlock
              value={t.response}
              maxChars={SHOWN_JSON}
              testId="response-json"
              links={traceLinks(t.id, "response")}
            />
          </div>
        </details>
      </div>
    </Card>
  );
}
