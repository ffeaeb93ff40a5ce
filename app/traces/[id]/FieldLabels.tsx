import { identifier } from "@/app/_components/Breakable";
import { Card } from "@/app/_components/Card";
import { CardTableHead } from "@/app/_components/CardTableHead";
import { FlagList } from "@/app/_components/FlagList";
import { LabelChip } from "@/app/_components/LabelChip";
import { LeftOutNote } from "@/app/_components/LeftOut";
import type { TraceDetail } from "@/db/queries/traceDetail";
import { cutOf } from "@/lib/budget/jsonBudget";
import type { FieldScore } from "@/lib/probe/score";
import { traceLinks } from "./links";

/** Per field: our label with its evidence, beside the recorded and imported human labels (reviews: ReviewPanel). */
export function FieldLabels({ t, focusField }: { t: TraceDetail; focusField: string | null }) {
  const fields = Object.entries(t.result.fields);
  const side = t.result.side_effect?.fields;
  return (
    <Card
      title="Labels per field"
      aside={<span className="text-xs text-slate-500">ours beside the others</span>}
    >
      {fields.length === 0 ? (
        <p className="text-sm text-slate-500 italic">This probe has no probed fields.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-sm" data-testid="field-labels">
            <CardTableHead
              roomy
              columns={[
                "Field",
                "Ours",
                "Why",
                "Field flags",
                "Recorded (harness)",
                "Imported human",
                side ? "Side effect" : null,
              ]}
            />
            <tbody>
              {fields.map(([f, s]) => (
                <tr
                  key={f}
                  className={`border-b border-slate-100 align-top last:border-0 ${f === focusField ? "bg-indigo-50/60" : ""}`}
                  data-testid="field-row"
                  data-field={f}
                  data-label={s.label}
                >
                  <th scope="row" className="py-1.5 pr-3 text-left font-mono font-normal">
                    <span className="ident">{identifier(f)}</span>
                    {f === focusField ? (
                      <span className="block font-sans text-[11px] text-indigo-700">filtered field</span>
                    ) : null}
                  </th>
                  <td className="py-1.5 pr-3">
                    <LabelChip label={s.label} testId="our-label" />
                  </td>
                  <td className="py-1.5 pr-3 text-xs text-slate-700" data-testid="why">
                    <Why score={s} />
                  </td>
                  <td className="py-1.5 pr-3">
                    <FlagList flags={s.flags} />
                  </td>
                  <td className="py-1.5 pr-3">
                    <OtherLabel ours={s.label} other={t.recorded?.[f]} testId="recorded-label" />
                  </td>
                  <td className="py-1.5 pr-3">
                    <OtherLabel ours={s.label} other={t.human?.[f]} testId="human-label" />
                  </td>
                  {side ? (
                    <td className="py-1.5">
                      {side[f] ? (
                        <span className="flex flex-wrap items-center gap-1">
                          <LabelChip label={side[f].label} testId="side-effect-label" />
                          <FlagList flags={side[f].flags} />
                        </span>
                      ) : (
                        <span className="text-slate-400">—</span>
                      )}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
          {cutOf(t.result.fields) ? (
            <LeftOutNote
              cut={cutOf(t.result.fields) ?? { total: null, shown: 0, from: 0 }}
              noun="probed fields"
              {...traceLinks(t.id, "response")}
            />
          ) : null}
        </div>
      )}
    </Card>
  );
}

function Why({ score }: { score: FieldScore }) {
  switch (score.label) {
    case "INJECT":
      return (
        <span>
          reasons: <span className="font-mono">{(score.reasons ?? []).join(", ")}</span>
        </span>
      );
    case "COPY":
      return (
        <span>
          source: <span className="font-mono">{score.source}</span>
        </span>
      );
    case "ERROR":
      return (
        <span className="[overflow-wrap:anywhere]">{score.error ?? "the arguments could not be read"}</span>
      );
    case "OMIT":
      return <span>missing, null or ""</span>;
    case "ASK":
      return <span>an ask term in the text (or a clarify call)</span>;
    case "DRIFT":
      return <span>no call and no ask term</span>;
    default:
      return null;
  }
}

/** Another party's label beside ours, with agreement in words and an icon. */
function OtherLabel({ ours, other, testId }: { ours: string; other: string | undefined; testId: string }) {
  if (other === undefined) return <span className="text-slate-400">—</span>;
  const label = String(other).toUpperCase();
  const agrees = label === ours;
  return (
    <span className="inline-flex items-center gap-1" data-testid={testId} data-agrees={agrees ? "yes" : "no"}>
      <LabelChip label={label} />
      <span className={`text-[11px] ${agrees ? "text-emerald-700" : "font-semibold text-red-700"}`}>
        <span aria-hidden="true">{agrees ? "✓ " : "≠ "}</span>
        {agrees ? "agrees" : "differs"}
      </span>
    </span>
  );
}
