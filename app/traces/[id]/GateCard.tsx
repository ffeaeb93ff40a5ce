import { InlineValue } from "@/app/_components/ArgumentMarks";
import { Card } from "@/app/_components/Card";
import { FactsTable } from "@/app/_components/FactsTable";
import { GATE_MEANING, GateBadge } from "@/app/_components/GateBadge";
import type { TraceDetail } from "@/db/queries/traceDetail";
import { DECISION_TABLE, type DecisionRow } from "@/lib/gate/decisionTable";
import type { Fact } from "@/lib/gate/facts";

const ROW_FOR: Record<string, DecisionRow | null> = {
  no_call: null,
  read_only: "read_only",
  fail: "unparsed",
  allow: "all_known",
};

/** The gate: verdict, blocking fields split into unknown and conflict, the next step, the facts. */
export function GateCard({
  t,
  facts,
  factOrigin,
  requires,
  args,
}: {
  t: TraceDetail;
  facts: Record<string, Fact>;
  factOrigin: (k: string) => string;
  requires: readonly string[];
  args: Record<string, unknown> | null;
}) {
  const g = t.result.gate;
  const rowName: DecisionRow | null =
    g.verdict === "block" ? (g.next === "stop" ? "conflict" : "unknown") : (ROW_FOR[g.verdict] ?? null);
  const row = rowName ? DECISION_TABLE.find((r) => r.row === rowName) : undefined;
  const blocking = g.next === "stop" ? g.conflict : g.unknown;
  return (
    <Card title="Gate" aside={<GateBadge verdict={g.verdict} next={g.next} />}>
      <div data-testid="gate" data-verdict={g.verdict}>
        <p className="text-sm text-slate-700">
          Verdict <span className="font-mono font-semibold">{g.verdict.replace("_", " ")}</span>:{" "}
          {GATE_MEANING[g.verdict] ?? g.verdict}.
        </p>
        {g.verdict === "block" ? (
          <dl className="mt-2 grid grid-cols-[8rem_1fr] gap-y-1 text-sm">
            <dt className="text-slate-500">Unknown</dt>
            <dd className="font-mono" data-testid="gate-unknown">
              {g.unknown.length ? g.unknown.join(", ") : "—"}
            </dd>
            <dt className="text-slate-500">Conflict</dt>
            <dd className="font-mono" data-testid="gate-conflict">
              {g.conflict.length ? g.conflict.join(", ") : "—"}
            </dd>
          </dl>
        ) : null}
        <div className="mt-3 rounded border border-slate-200 bg-slate-50 p-3 text-sm" data-testid="next-step">
          <h3 className="text-xs font-medium text-slate-500 uppercase">Next step (decision table)</h3>
          {row ? (
            <>
              <p className="mt-1 text-slate-600">{row.worldState}</p>
              <p className="mt-0.5 font-medium text-slate-900" data-testid="next-step-text">
                {row.userVisible}
                {g.verdict === "block" && blocking.length ? `: ${blocking.join(", ")}` : ""}
              </p>
              <p className="mt-0.5 text-xs text-slate-600">
                Tool call: <span className="font-mono">{row.toolCall}</span>
                {g.verdict === "fail"
                  ? " · a retry asks the model again; the gate never fills in a guessed value"
                  : ""}
              </p>
              {g.next === "stop" ? (
                <ul className="mt-2 space-y-1 text-xs" data-testid="conflict-values">
                  {g.conflict.map((k) => (
                    <li key={k}>
                      <span className="font-mono">{k}</span>: the loop holds{" "}
                      <InlineValue value={facts[k]?.value ?? null} max={200} />
                      {args && Object.hasOwn(args, k) ? (
                        <>
                          {" "}
                          · the call sent <InlineValue value={args[k]} max={200} />
                        </>
                      ) : null}
                    </li>
                  ))}
                </ul>
              ) : null}
            </>
          ) : (
            <p className="mt-1 text-slate-700">No call was made: there is nothing to gate.</p>
          )}
        </div>
        <h3 className="mt-3 text-xs font-medium text-slate-500 uppercase">Facts the agent loop holds</h3>
        <p className="text-xs text-slate-500">The gate reads these facts, never the model's arguments.</p>
        <FactsTable
          facts={facts}
          requires={requires}
          origin={factOrigin}
          hypothetical={g.verdict !== "allow" && g.verdict !== "block"}
        />
      </div>
    </Card>
  );
}
