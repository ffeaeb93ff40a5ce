import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { getDb } from "@/db/client";
import { listProbes } from "@/db/queries/probes";
import { probeableProperties, probeFromDraft } from "@/lib/probe/fromTrace";
import { rejectedWhatIf } from "@/lib/probe/rejectedWhatIf";
import { SaveMadeProbe } from "./SaveMadeProbe";
import { choicesOf, loadSource } from "./source";

export const metadata: Metadata = { title: "Make a probe from a trace" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const input = "w-full min-w-0 rounded border border-slate-300 bg-white px-2 py-1 text-sm";

export default async function NewProbePage({ searchParams }: Props) {
  await connection();
  const sp = await searchParams;
  const get = (k: string) => {
    const v = sp[k];
    return typeof v === "string" ? v : Array.isArray(v) ? (v[0] ?? null) : null;
  };
  const all = (k: string) => {
    const v = sp[k];
    return typeof v === "string" ? [v] : Array.isArray(v) ? v : [];
  };
  const kind = get("trace") !== null ? "trace" : "rejected";
  const sourceId = Number(get(kind));
  if (!Number.isInteger(sourceId) || sourceId <= 0)
    return (
      <Empty>
        Open this page from a trace (its “make a probe from this” link) or from an upload’s rejected records.
        To add a probe from its JSON,{" "}
        <Link href="/probes/paste" className="text-indigo-700 underline">
          paste it
        </Link>
        .
      </Empty>
    );
  const db = getDb();
  const src = loadSource(db, kind, sourceId);
  if ("error" in src) return <Empty>{src.error}.</Empty>;
  const { draft } = src;
  if (draft.tools.length === 0)
    return (
      <Empty>
        The request of {src.label} carried no tool definitions, so there is no tool or schema to make a probe
        from.{" "}
        <Link href="/probes/paste" className="text-indigo-700 underline">
          Paste a probe’s JSON
        </Link>{" "}
        instead.
      </Empty>
    );
  const choices = choicesOf(get, all);
  const tool = draft.tools.find((t) => t.name === choices.tool) ?? draft.tools[0];
  const props = probeableProperties(tool);
  const id = choices.id || tool.name;
  const asked = get("preview") !== null;
  const made = asked ? probeFromDraft(draft, { ...choices, id, tool: tool.name }) : null;
  const what = made?.ok
    ? rejectedWhatIf(
        made.probe,
        listProbes(db).map((p) => p.probe),
        src.rejected,
      )
    : null;
  const values: [string, string][] = [
    ["kind", kind],
    ["source", String(sourceId)],
    ["id", id],
    ["tool", tool.name],
    ...choices.fields.map((f): [string, string] => ["field", f]),
    ...Object.entries(choices.hidden).map(([f, v]): [string, string] => [`hidden.${f}`, v]),
  ];

  return (
    <div className="max-w-3xl space-y-4">
      <div>
        <h1 className="text-xl font-semibold">Make a probe from this</h1>
        <p className="mt-1 text-sm text-slate-600">
          From {src.label}: the tool and its JSON schema, the request’s system and user messages as the world.
          Pick the probed fields (the schema's properties the request may leave out) and what the world hides,
          see what the probe would do to the records no probe matched, then save it.
        </p>
      </div>
      <form method="get" className="space-y-4" data-testid="make-probe-form">
        <input type="hidden" name={kind} value={sourceId} />
        <input type="hidden" name="preview" value="1" />
        <div className="grid gap-3 sm:grid-cols-2">
          <label className="block text-sm">
            <span className="text-slate-600">Probe id (an existing id gets a new version)</span>
            <input name="id" defaultValue={id} className={input} data-testid="made-probe-id" />
          </label>
          <label className="block text-sm">
            <span className="text-slate-600">Tool</span>
            <select name="tool" defaultValue={tool.name} className={input} data-testid="made-probe-tool">
              {draft.tools.map((t) => (
                <option key={t.name} value={t.name}>
                  {t.name}
                </option>
              ))}
            </select>
          </label>
        </div>
        <div className="space-y-1 text-sm">
          <div className="text-slate-600">World: system</div>
          <pre className="max-h-32 overflow-auto rounded bg-slate-50 p-2 whitespace-pre-wrap break-words">
            {draft.system || <em className="text-slate-400">(none)</em>}
          </pre>
          <div className="text-slate-600">World: user</div>
          <pre
            className="max-h-40 overflow-auto rounded bg-slate-50 p-2 whitespace-pre-wrap break-words"
            data-testid="made-probe-user"
          >
            {draft.user || <em className="text-slate-400">(none)</em>}
          </pre>
        </div>
        <fieldset className="space-y-2 text-sm">
          <legend className="font-medium">Probed fields and hidden facts</legend>
          {props.length === 0 ? (
            <p className="text-slate-500 italic">
              {tool.name}’s schema has no properties: nothing to probe. Choose another tool.
            </p>
          ) : (
            props.map(({ name: f, required }) => (
              <div key={f} className="flex flex-wrap items-center gap-2">
                <label className="flex min-w-32 items-center gap-2">
                  <input
                    type="checkbox"
                    name="field"
                    value={f}
                    defaultChecked={choices.fields.includes(f)}
                    data-testid={`field-${f}`}
                  />
                  <code>{f}</code>
                  {required ? (
                    <span
                      className="text-xs text-slate-500"
                      title="the schema requires it: a model must fill it"
                    >
                      required
                    </span>
                  ) : null}
                </label>
                <input
                  name={`hidden.${f}`}
                  defaultValue={choices.hidden[f] ?? ""}
                  placeholder="the value the world hides (optional)"
                  aria-label={`hidden value of ${f}`}
                  className={`${input} max-w-72 flex-1`}
                  data-testid={`hidden-${f}`}
                />
              </div>
            ))
          )}
        </fieldset>
        <button
          type="submit"
          className="rounded bg-slate-900 px-3 py-2 text-sm text-white"
          data-testid="preview-made-probe"
        >
          Show the what-if
        </button>
      </form>
      {made && !made.ok ? (
        <p role="alert" className="text-sm text-red-700" data-testid="made-probe-error">
          {made.error}
        </p>
      ) : null}
      {what ? (
        <section className="space-y-2 rounded border border-slate-200 p-3 text-sm" data-testid="what-if">
          <h2 className="font-semibold">What-if</h2>
          <p data-testid="what-if-matched">
            It would match {what.matched} of the {src.rejected.length} record
            {src.rejected.length === 1 ? "" : "s"} no probe matched.
          </p>
          {what.matched > 0 ? (
            <ul className="space-y-1">
              {Object.entries(what.labels).map(([f, counts]) => (
                <li key={f} data-testid={`what-if-labels-${f}`}>
                  <code>{f}</code>:{" "}
                  {Object.entries(counts)
                    .map(([l, n]) => `${l} ${n}`)
                    .join(", ") || "no labels"}
                </li>
              ))}
            </ul>
          ) : null}
          <SaveMadeProbe values={values} matched={what.matched} />
        </section>
      ) : null}
    </div>
  );
}

function Empty({ children }: { children: React.ReactNode }) {
  return (
    <div className="max-w-2xl space-y-2">
      <h1 className="text-xl font-semibold">Make a probe from this</h1>
      <p className="text-sm text-slate-600" data-testid="make-probe-empty">
        {children}
      </p>
    </div>
  );
}
