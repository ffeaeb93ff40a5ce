import Link from "next/link";
import { Ident } from "@/app/_components/Breakable";
import { Card } from "@/app/_components/Card";
import { CutNote } from "@/app/_components/SafeJsonBlock";
import { ToolSchema } from "@/app/_components/ToolSchema";
import type { TraceDetail } from "@/db/queries/traceDetail";
import type { CompiledProbe } from "@/lib/probe/compile";

/** The probe's tool as the model saw it (probed and required fields marked), and the other tools offered. */
export function ToolSchemaCard({ t, probe }: { t: TraceDetail; probe: CompiledProbe | null }) {
  const offered = t.probe?.tools?.filter((x) => x.name !== t.probe?.tool?.name) ?? [];
  return (
    <Card
      title="Tool schema"
      aside={
        <Link
          href={`/probes/${encodeURIComponent(t.probeId)}?version=${t.probeVersion}`}
          className="text-xs text-indigo-700 hover:underline"
        >
          probe <Ident text={t.probeId} max={60} /> v{t.probeVersion}
        </Link>
      }
    >
      {t.probe?.tool ? (
        <ToolSchema tool={t.probe.tool} probed={probe?.fields ?? []} requires={probe?.requires ?? []} />
      ) : (
        <p className="text-sm text-slate-600" data-testid="tool-schema">
          This probe offers no tool that fits: the right answer is to say so, not to call.
        </p>
      )}
      {offered.length > 0 ? (
        <details className="mt-3 text-sm" data-testid="other-tools">
          <summary className="cursor-pointer text-xs font-medium text-slate-500 uppercase">
            Other tools offered ({offered.length})
          </summary>
          <div className="mt-2 space-y-3">
            {offered.slice(0, 30).map((tool) => (
              <ToolSchema key={tool.name} tool={tool} testId="other-tool" maxParams={20} />
            ))}
            {offered.length > 30 ? <CutNote>{`showing 30 of ${offered.length} tools`}</CutNote> : null}
          </div>
        </details>
      ) : null}
    </Card>
  );
}
