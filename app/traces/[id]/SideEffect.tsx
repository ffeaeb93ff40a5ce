import { ArgumentTable } from "@/app/_components/ArgumentMarks";
import { Card } from "@/app/_components/Card";
import { FlagList } from "@/app/_components/FlagList";
import { LabelChip } from "@/app/_components/LabelChip";
import { LeftOutNote } from "@/app/_components/LeftOut";
import { SafeJsonBlock } from "@/app/_components/SafeJsonBlock";
import type { TraceDetail } from "@/db/queries/traceDetail";
import { cutOf } from "@/lib/budget/jsonBudget";
import { markValues } from "@/lib/probe/argumentMarks";
import type { CompiledProbe } from "@/lib/probe/compile";
import type { ReadArgs } from "@/lib/probe/score";
import { traceLinks } from "./links";

/** The row the backend wrote, marked like a call, and its labels. */
export function SideEffect({
  t,
  probe,
  written,
  read,
}: {
  t: TraceDetail;
  probe: CompiledProbe | null;
  /** The record's side_effect.written, and how it reads as arguments (to a budget). */
  written: unknown;
  read: ReadArgs | null;
}) {
  const side = t.result.side_effect;
  if (!side) return null;
  const marked = read?.ok && probe ? markValues(read.args, probe) : null;
  const cut = read?.ok ? cutOf(read.args) : undefined;
  return (
    <Card title="Side effect: the row the backend wrote">
      <div data-testid="side-effect">
        <div className="mb-2 flex flex-wrap gap-1">
          {Object.entries(side.fields).map(([f, s]) => (
            <span key={f} className="inline-flex items-center gap-1">
              <LabelChip field={f} label={s.label} />
              <FlagList flags={s.flags} />
            </span>
          ))}
        </div>
        {marked ? (
          <ArgumentTable
            args={marked.args}
            omitted={marked.omitted}
            requires={probe?.requires ?? []}
            testId="side-effect-table"
          />
        ) : (
          <SafeJsonBlock value={written ?? null} maxChars={20_000} />
        )}
        {marked && cut ? (
          <LeftOutNote
            cut={cut}
            noun="columns"
            kept="the first ones, and every probed or required one wherever it is"
            {...traceLinks(t.id, "record", ["side_effect", "written"])}
          />
        ) : null}
        <p className="mt-2 text-xs text-slate-500">
          Scored by the same rules as a call; <span className="font-mono">backend_default</span> marks a field
          the call omitted and the backend filled.
        </p>
      </div>
    </Card>
  );
}
