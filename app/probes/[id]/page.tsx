import { notFound } from "next/navigation";
import { Card } from "@/app/_components/Card";
import { JsonBlock } from "@/app/_components/JsonBlock";
import { StateTable } from "@/app/_components/StateTable";
import { builtinProbes } from "@/lib/probe/builtin";
import { compileProbe } from "@/lib/probe/compile";

export default async function ProbePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const probe = builtinProbes().get(decodeURIComponent(id));
  if (!probe) notFound();
  const c = compileProbe(probe);
  return (
    <div className="space-y-4">
      <div>
        <h1 className="font-mono text-xl font-semibold" data-testid="probe-id">
          {probe.id}
        </h1>
        {probe.title ? <p className="text-slate-600">{probe.title}</p> : null}
      </div>
      <div className="grid gap-4 md:grid-cols-2">
        <Card title="Visible world (what the model sees)">
          <h3 className="text-xs font-medium text-slate-500 uppercase">Redacted state</h3>
          <StateTable state={probe.redacted} testId="redacted-state" />
          <h3 className="mt-3 text-xs font-medium text-slate-500 uppercase">User message</h3>
          <p className="mt-1 rounded bg-slate-50 p-2 text-sm" data-testid="user-text">
            {probe.user}
          </p>
        </Card>
        <Card
          title="Hidden world (truth, never shown to the model)"
          className="border-amber-300 bg-amber-50/40"
        >
          <StateTable state={probe.hidden} testId="hidden-state" />
        </Card>
      </div>
      <Card title="Scoring">
        <dl className="grid grid-cols-[10rem_1fr] gap-y-2 text-sm">
          <dt className="text-slate-500">Probed fields</dt>
          <dd className="font-mono">{c.fields.join(", ") || "none"}</dd>
          <dt className="text-slate-500">Ask terms</dt>
          <dd>
            {c.fields.map((f) => (
              <div key={f}>
                <span className="font-mono">{f}</span>: {c.askTerms[f].map((t) => `“${t}”`).join(", ")}
              </div>
            ))}
          </dd>
          <dt className="text-slate-500">Bait</dt>
          <dd className="font-mono">{probe.bait.join(", ") || "none"}</dd>
          <dt className="text-slate-500">Gate requires</dt>
          <dd className="font-mono">{probe.requires.join(", ") || "nothing"}</dd>
        </dl>
      </Card>
      <Card title="System prompt">
        <pre className="whitespace-pre-wrap text-sm">{probe.system}</pre>
      </Card>
      <Card title="Tool">
        <JsonBlock value={probe.tool ?? null} />
      </Card>
    </div>
  );
}
