import Link from "next/link";
import { LabelChip } from "@/app/_components/LabelChip";
import { ScrollBox } from "@/app/_components/ScrollBox";
import type { FixtureFlip, WhatIfReport } from "@/lib/tuning/whatIf";

const n = (x: number) => x.toLocaleString("en-US");

/**
 * The what-if of a draft, as both tuning pages show it while the draft changes: fixtures fixed and
 * broken per set (a broken seed fixture loudly), then per field how many stored labels would move
 * from which label to which, with example traces and how many moves agree with a human label.
 */
export function WhatIfPanel({
  report,
  state,
  error,
}: {
  report: WhatIfReport | null;
  state: "idle" | "computing" | "ready";
  error: string;
}) {
  return (
    <section
      className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
      aria-live="polite"
      aria-busy={state === "computing"}
      data-testid="what-if"
      data-state={state}
    >
      <div className="mb-2 flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-sm font-semibold tracking-wide text-slate-700 uppercase">What-if</h2>
        <span className="text-xs text-slate-500" data-testid="what-if-status">
          {state === "computing"
            ? "computing…"
            : report
              ? `nothing saved · ${n(report.traces.read)} traces read, ${n(report.traces.scored)} scored again in ${n(report.ms)} ms`
              : ""}
        </span>
      </div>
      {error ? (
        <p role="alert" className="rounded bg-red-50 p-2 text-sm text-red-800" data-testid="what-if-error">
          {error}
        </p>
      ) : null}
      {!report ? (
        <p className="text-sm text-slate-500 italic">
          Change the draft: what it would fix and break shows here before anything is saved.
        </p>
      ) : report.change === "no change" ? (
        <p className="text-sm text-slate-600" data-testid="what-if-none">
          The draft is the saved version: nothing would change.
        </p>
      ) : (
        <div className="space-y-3">
          <p
            className="font-mono text-xs [overflow-wrap:anywhere] text-slate-600"
            data-testid="what-if-change"
          >
            {report.change}
          </p>
          <Fixtures report={report} />
          <Traces report={report} />
        </div>
      )}
    </section>
  );
}

function Fixtures({ report }: { report: WhatIfReport }) {
  const f = report.fixtures;
  return (
    <div
      data-testid="what-if-fixtures"
      data-fixed={f.fixed}
      data-broken={f.broken}
      data-seed-broken={f.seedBroken}
    >
      {f.seedBroken > 0 ? (
        <p
          role="alert"
          className="mb-2 rounded border border-red-300 bg-red-50 p-2 text-sm font-medium text-red-900"
          data-testid="seed-break"
        >
          <span aria-hidden="true">✗ </span>Breaks {n(f.seedBroken)} fixture{f.seedBroken === 1 ? "" : "s"} of
          the seed set (the first article's four): saving needs your confirmation.
        </p>
      ) : null}
      {f.broken - f.seedBroken > 0 ? (
        <p
          role="alert"
          className="mb-2 rounded border border-red-300 bg-red-50 p-2 text-sm font-medium text-red-900"
          data-testid="fixture-guard"
        >
          <span aria-hidden="true">✗ </span>Moves {n(f.broken - f.seedBroken)} fixture
          {f.broken - f.seedBroken === 1 ? "" : "s"} away from the expected label: saving needs your
          confirmation.
        </p>
      ) : null}
      <h3 className="text-xs font-medium text-slate-500 uppercase">Fixtures</h3>
      <p className="text-sm">
        <span className={f.fixed ? "font-semibold text-emerald-800" : ""}>{n(f.fixed)} fixed</span> ·{" "}
        <span className={f.broken ? "font-semibold text-red-800" : ""}>{n(f.broken)} broken</span>{" "}
        <span className="text-slate-500">of {n(f.touched)} fixtures the draft touches</span>
      </p>
      {f.sets.filter((s) => s.fixed || s.broken).length > 0 ? (
        <ul className="mt-1 space-y-2 text-sm">
          {f.sets
            .filter((s) => s.fixed || s.broken)
            .map((s) => (
              <li
                key={s.set}
                data-testid="what-if-set"
                data-set={s.set}
                data-fixed={s.fixed}
                data-broken={s.broken}
              >
                <Link
                  href={`/fixtures/${encodeURIComponent(s.set)}`}
                  className="font-mono text-indigo-700 hover:underline"
                >
                  {s.set}
                </Link>
                {s.seed ? <span className="ml-1 text-xs text-slate-500">(seed)</span> : null}: {n(s.fixed)}{" "}
                fixed, {n(s.broken)} broken of {n(s.touched)}
                <ul className="mt-1 space-y-0.5 pl-3">
                  {s.flips.map((x) => (
                    <Flip key={`${x.set}/${x.identity}`} flip={x} />
                  ))}
                  {s.fixed + s.broken > s.flips.length ? (
                    <li className="text-xs text-slate-500">
                      and {n(s.fixed + s.broken - s.flips.length)} more
                    </li>
                  ) : null}
                </ul>
              </li>
            ))}
        </ul>
      ) : null}
    </div>
  );
}

function Flip({ flip }: { flip: FixtureFlip }) {
  const fixed = flip.after === flip.expected;
  return (
    <li
      className="flex flex-wrap items-center gap-1 text-xs"
      data-testid="what-if-flip"
      data-kind={fixed ? "fixed" : "broken"}
    >
      <span className={`font-semibold ${fixed ? "text-emerald-800" : "text-red-800"}`}>
        {fixed ? "fixed" : "broken"}
      </span>
      <Link
        href={`/fixtures/${encodeURIComponent(flip.set)}/${flip.identity}`}
        className="inline-flex min-h-6 items-center font-mono text-indigo-700 hover:underline"
      >
        {flip.identity.slice(0, 12)}
      </Link>
      <span className="font-mono text-slate-600">
        {flip.probe} · {flip.field}
      </span>
      expected <LabelChip label={flip.expected} />
      <LabelChip label={flip.before} /> → <LabelChip label={flip.after} />
    </li>
  );
}

function Traces({ report }: { report: WhatIfReport }) {
  const t = report.traces;
  return (
    <div data-testid="what-if-traces" data-moved={t.moved}>
      <h3 className="text-xs font-medium text-slate-500 uppercase">Stored traces</h3>
      <p className="text-sm">
        <span className="font-semibold">{n(t.moved)}</span> label{t.moved === 1 ? "" : "s"} would move
        {t.moved ? (
          <>
            {" "}
            (<span className="text-emerald-800">{n(t.agrees)} to a human label</span>,{" "}
            <span className={t.disagrees ? "text-red-800" : ""}>{n(t.disagrees)} away from one</span>)
          </>
        ) : null}
        {t.all ? (
          <span className="text-slate-500"> · a clarify tool change: every trace of the probe was read</span>
        ) : null}
        {t.missing ? (
          <span className="text-amber-800"> · {n(t.missing)} traces scored by versions no longer stored</span>
        ) : null}
        {t.importedAway ? (
          <span className="text-slate-600" data-testid="imported-away">
            {" "}
            · {n(t.importedAway)} away from an imported label (shown, not guarded)
          </span>
        ) : null}
      </p>
      {t.reviewedAway ? (
        <div
          role="alert"
          className="my-2 rounded border border-red-300 bg-red-50 p-2 text-sm text-red-900"
          data-testid="reviewed-guard"
          data-count={t.reviewedAway}
        >
          <p className="font-medium">
            <span aria-hidden="true">✗ </span>Moves {n(t.reviewedAway)} reviewed field
            {t.reviewedAway === 1 ? "" : "s"} away from the review: saving needs your confirmation.
          </p>
          <ul className="mt-1 space-y-0.5">
            {(t.reviewed ?? []).map((m) => (
              <li key={`${m.trace}:${m.field}`} data-testid="reviewed-move">
                <Link href={`/traces/${m.trace}`} className="text-indigo-700 underline">
                  trace {m.trace}
                </Link>{" "}
                <span className="font-mono">{m.field}</span>: reviewed {m.review}, {m.from} → {m.to}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {t.fields.length > 0 ? (
        <ScrollBox label="Label moves">
          <table className="mt-1 w-full text-sm" data-testid="what-if-moves">
            <thead className="border-b border-slate-200 text-left text-xs text-slate-500">
              <tr>
                <th className="py-1 pr-3 font-medium">Field</th>
                <th className="py-1 pr-3 font-medium">Move</th>
                <th className="py-1 pr-3 text-right font-medium">Traces</th>
                <th
                  className="py-1 pr-3 text-right font-medium"
                  title="Moved fields whose human label is the new label"
                >
                  Agree
                </th>
                <th
                  className="py-1 pr-3 text-right font-medium"
                  title="Moved fields whose human label is another"
                >
                  Disagree
                </th>
                <th className="py-1 font-medium">Examples</th>
              </tr>
            </thead>
            <tbody>
              {t.fields.flatMap((f) =>
                f.moves.map((m) => (
                  <tr
                    key={`${f.field}:${m.from}>${m.to}`}
                    className="border-b border-slate-100 align-top last:border-0"
                    data-testid="what-if-move"
                    data-field={f.field}
                    data-from={m.from}
                    data-to={m.to}
                    data-count={m.count}
                  >
                    <td className="py-1 pr-3 font-mono">{f.field}</td>
                    <td className="py-1 pr-3 whitespace-nowrap">
                      <LabelChip label={m.from} /> → <LabelChip label={m.to} />
                    </td>
                    <td className="py-1 pr-3 text-right tabular-nums">{n(m.count)}</td>
                    <td className="py-1 pr-3 text-right tabular-nums text-emerald-800">
                      {m.agrees ? n(m.agrees) : "—"}
                    </td>
                    <td className="py-1 pr-3 text-right tabular-nums text-red-800">
                      {m.disagrees ? n(m.disagrees) : "—"}
                    </td>
                    <td className="py-1 text-xs">
                      {m.examples.map((id) => (
                        <Link
                          key={id}
                          href={`/traces/${id}`}
                          className="mr-2 font-mono text-indigo-700 hover:underline"
                        >
                          #{id}
                        </Link>
                      ))}
                    </td>
                  </tr>
                )),
              )}
            </tbody>
          </table>
        </ScrollBox>
      ) : null}
      {t.reasons.length > 0 ? (
        <ul className="mt-2 space-y-0.5 text-xs" data-testid="what-if-reasons">
          {t.reasons.map((m) => (
            <li key={`${m.field}:${m.from}>${m.to}`}>
              <span className="font-mono">{m.field}</span> INJECT reasons {m.from} → {m.to}: {n(m.count)}{" "}
              {m.examples.map((id) => (
                <Link
                  key={id}
                  href={`/traces/${id}`}
                  className="mr-1 font-mono text-indigo-700 hover:underline"
                >
                  #{id}
                </Link>
              ))}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
