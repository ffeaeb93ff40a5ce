import { Ident } from "@/app/_components/Breakable";
import { Card } from "@/app/_components/Card";
import { CardTableHead } from "@/app/_components/CardTableHead";
import { GateBadge } from "@/app/_components/GateBadge";
import { SafeJsonBlock } from "@/app/_components/SafeJsonBlock";
import type { TraceDetail } from "@/db/queries/traceDetail";
import type { GateLogResult, LoggedVerdict } from "@/lib/ingest/gateLog";
import { GATE_MISMATCH } from "@/lib/ingest/gateLogForm";
import { isObject } from "@/lib/isObject";

const SHOWN_JSON = 20_000;

/** A gate-log trace's two verdicts: the one the agent's gate recorded, and ours on the same state. */
export function gateLogVerdicts(t: TraceDetail): { recorded: LoggedVerdict; ours: LoggedVerdict } {
  const r = t.result as unknown as Partial<GateLogResult>;
  const ours = (r.gate ?? { verdict: t.gate, unknown: [], conflict: [], next: null }) as LoggedVerdict;
  return { recorded: r.recorded_gate ?? ours, ours };
}

function short(v: unknown): string {
  if (v === undefined) return "—";
  const s = typeof v === "string" ? v : JSON.stringify(v);
  return s.length > 120 ? `${s.slice(0, 119)}…` : s;
}

function Verdict({ title, v, testId }: { title: string; v: LoggedVerdict; testId: string }) {
  return (
    <div data-testid={testId}>
      <p className="text-xs text-slate-600">{title}</p>
      <p className="mt-1">
        <GateBadge verdict={v.verdict} next={v.next} />
      </p>
      {v.unknown.length + v.conflict.length > 0 ? (
        <p className="mt-1 font-mono text-xs text-slate-700">
          {[...v.unknown.map((x) => `${x} unknown`), ...v.conflict.map((x) => `${x} in conflict`)].join(", ")}
        </p>
      ) : null}
    </div>
  );
}

/**
 * One decision of a gate in the user's agent: the tool and its arguments, the world state the gate
 * read (required facts first), the verdict it recorded and ours on the same state.
 */
export function GateLogDecision({ t }: { t: TraceDetail }) {
  const rec = isObject(t.original.parsed) ? t.original.parsed : {};
  const { recorded, ours } = gateLogVerdicts(t);
  const requires = Array.isArray(rec.requires) ? rec.requires.filter((x) => typeof x === "string") : [];
  const state = isObject(rec.world_state) ? rec.world_state : {};
  const names = [...requires, ...Object.keys(state).filter((k) => !requires.includes(k))];
  const blocking = new Set([...recorded.unknown, ...recorded.conflict, ...ours.unknown, ...ours.conflict]);
  const mismatch = t.result.flags.includes(GATE_MISMATCH as never);
  const call: Record<string, unknown> = { arguments: rec.arguments };
  if (rec.keyword_arguments !== undefined) call.keyword_arguments = rec.keyword_arguments;
  return (
    <div className="space-y-4" data-testid="gate-log-decision">
      <Card title="Gate decision">
        <div className="grid gap-4 sm:grid-cols-3">
          <div>
            <p className="text-xs text-slate-600">Tool</p>
            <p className="mt-1 font-mono text-sm font-semibold" data-testid="gate-log-tool">
              <Ident text={typeof rec.tool === "string" ? rec.tool : "—"} />
            </p>
            <p className="mt-1 text-xs text-slate-500">
              {rec.implementation === "python" ? "Python twin" : "TypeScript gate"}
              {rec.redacted === true ? " · values redacted" : ""}
            </p>
          </div>
          <Verdict title="Recorded by the agent's gate" v={recorded} testId="recorded-verdict" />
          <Verdict title="Ours, on the recorded state" v={ours} testId="our-verdict" />
        </div>
        {mismatch ? (
          <p
            className="mt-3 rounded border border-red-300 bg-red-50 p-2 text-sm text-red-900"
            role="alert"
            data-testid="gate-mismatch-note"
          >
            Our gate decides otherwise on the same world state and required facts: the agent's gate (another
            version, or a copy of the rules) does not do what the decision table says.
          </p>
        ) : null}
      </Card>
      <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <Card title="World state the gate read">
          {names.length === 0 ? (
            <p className="text-sm text-slate-600">No facts.</p>
          ) : (
            <div className="overflow-x-auto">
              <table className="w-full text-sm" data-testid="gate-log-facts">
                <CardTableHead columns={["Fact", "Status", "Value", "Source"]} />
                <tbody>
                  {names.map((name) => {
                    const f = isObject(state[name]) ? state[name] : undefined;
                    return (
                      <tr
                        key={name}
                        className={`border-t border-slate-100 align-top ${blocking.has(name) ? "bg-amber-50" : ""}`}
                        data-testid="gate-log-fact"
                      >
                        <td className="py-1 pr-3 font-mono text-xs">
                          <Ident text={name} max={80} />
                          {requires.includes(name) ? (
                            <span className="ml-1 text-slate-500">required</span>
                          ) : null}
                        </td>
                        <td className="py-1 pr-3 font-mono text-xs">{f ? short(f.status) : "missing"}</td>
                        <td className="py-1 pr-3 font-mono text-xs break-all">{f ? short(f.value) : "—"}</td>
                        <td className="py-1 font-mono text-xs">{f ? short(f.source) : "—"}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )}
        </Card>
        <Card title="Call">
          <SafeJsonBlock value={call} maxChars={SHOWN_JSON} testId="gate-log-arguments" />
          {typeof rec.next_step === "object" && rec.next_step !== null && "message" in rec.next_step ? (
            <p className="mt-3 text-sm text-slate-700" data-testid="gate-log-next-step">
              <span className="text-xs text-slate-500">The decision table's next step: </span>
              {short((rec.next_step as { message: unknown }).message)}
            </p>
          ) : null}
        </Card>
      </div>
    </div>
  );
}
