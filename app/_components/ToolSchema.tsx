import { PAGE_BUDGET } from "@/lib/budget/jsonBudget";
import { isObject } from "@/lib/isObject";
import { type Tool, toolParameters } from "@/lib/probe/schema";
import { breakable, identifier } from "./Breakable";
import { CardTableHead } from "./CardTableHead";
import { CutNote } from "./SafeJsonBlock";
import { inlineValue } from "./safeJson";

/** Parameters listed before the probed and required ones. */
const MAX_PARAMS = PAGE_BUDGET.entries;

function typeOf(schema: unknown): string {
  if (!isObject(schema)) return "";
  const t = schema.type;
  let out = Array.isArray(t)
    ? t.filter((x) => typeof x === "string").join(" | ")
    : typeof t === "string"
      ? t
      : "";
  if (out === "" && Array.isArray(schema.enum)) out = "enum";
  if (out === "" && Array.isArray(schema.anyOf)) out = "anyOf";
  return out.length > 80 ? `${out.slice(0, 80)}…` : out;
}

/** An enum's values on one line (capped), or null. */
function enumOf(schema: unknown): string | null {
  if (!isObject(schema) || !Array.isArray(schema.enum)) return null;
  const values = schema.enum.slice(0, 20).map((v) => inlineValue(v, 60).text);
  return `one of ${values.join(" | ")}${schema.enum.length > 20 ? ` | … (${schema.enum.length} in all)` : ""}`;
}

/**
 * A tool's parameters with required and optional marked in words, plus which are probed and
 * which the gate requires before the side effect.
 */
export function ToolSchema({
  tool,
  probed = [],
  requires = [],
  testId = "tool-schema",
  maxParams = MAX_PARAMS,
}: {
  tool: Tool;
  /** Parameters listed before the probed and required ones. */
  maxParams?: number;
  probed?: readonly string[];
  requires?: readonly string[];
  testId?: string;
}) {
  const { properties: props, required } = toolParameters(tool);
  const probedSet = new Set(probed);
  const reqSet = new Set(requires);
  const all = Object.keys(props);
  // The first MAX_PARAMS parameters, then every probed or required one wherever it is (and the
  // ones the schema lacks: they still deserve a row). A schema can have tens of thousands.
  const names = all.slice(0, maxParams);
  const listed = new Set(names);
  for (const f of [...probed, ...requires]) {
    if (!listed.has(f)) {
      names.push(f);
      listed.add(f);
    }
  }
  const notShown = all.length - names.filter((x) => Object.hasOwn(props, x)).length;
  return (
    <div data-testid={testId}>
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <span className="ident font-mono font-semibold" data-testid="tool-name">
          {identifier(tool.name)}
        </span>
        <span
          className={`rounded px-1.5 py-0.5 text-xs ring-1 ring-inset ${tool.mutating ? "bg-red-50 text-red-800 ring-red-600/30" : "bg-sky-50 text-sky-800 ring-sky-600/30"}`}
        >
          {tool.mutating ? "mutating: has side effects" : "read-only"}
        </span>
      </div>
      {tool.description ? (
        <p className="mt-1 text-sm [overflow-wrap:anywhere] text-slate-600">
          {breakable(
            tool.description.length > 2000 ? `${tool.description.slice(0, 2000)}…` : tool.description,
          )}
        </p>
      ) : null}
      <div className="mt-2 overflow-x-auto">
        <table className="w-full text-sm">
          <CardTableHead columns={["Parameter", "Type", "Schema says", "Probed", "Gate requires"]} />
          <tbody>
            {names.length === 0 ? (
              <tr>
                <td colSpan={5} className="py-1.5 text-slate-500 italic">
                  no parameters
                </td>
              </tr>
            ) : null}
            {names.map((n) => {
              const inSchema = Object.hasOwn(props, n);
              const s = inSchema ? props[n] : undefined;
              const desc = isObject(s) && typeof s.description === "string" ? s.description : "";
              return (
                <tr
                  key={n}
                  className="border-b border-slate-100 align-top last:border-0"
                  data-testid="param-row"
                  data-param={n}
                >
                  <th scope="row" className="py-1 pr-3 text-left font-normal">
                    <span className="ident font-mono">{identifier(n)}</span>
                    {desc ? (
                      <span className="block min-w-48 text-xs text-slate-500">
                        {breakable(desc.length > 600 ? `${desc.slice(0, 600)}…` : desc)}
                      </span>
                    ) : null}
                    {enumOf(s) ? (
                      <span className="block min-w-48 font-mono text-[11px] text-slate-600">
                        {breakable(enumOf(s) ?? "")}
                      </span>
                    ) : null}
                  </th>
                  <td className="py-1 pr-3 font-mono text-xs whitespace-nowrap text-slate-600">
                    {typeOf(s)}
                  </td>
                  <td className="py-1 pr-3 text-xs whitespace-nowrap" data-testid="param-role">
                    {!inSchema ? (
                      <span className="text-slate-500 italic">not in schema</span>
                    ) : required.has(n) ? (
                      <span className="font-semibold text-slate-900">required</span>
                    ) : (
                      <span className="text-slate-600">optional</span>
                    )}
                  </td>
                  <td className="py-1 pr-3 text-xs">
                    {probedSet.has(n) ? "probed" : <span className="text-slate-400">—</span>}
                  </td>
                  <td className="py-1 text-xs" data-testid="param-gate">
                    {reqSet.has(n) ? (
                      <span className={required.has(n) ? "" : "font-semibold text-red-800"}>
                        {required.has(n) ? "required" : "required (optional in the schema)"}
                      </span>
                    ) : (
                      <span className="text-slate-400">—</span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {notShown > 0 ? (
        <CutNote>{`showing ${(all.length - notShown).toLocaleString("en-US")} of ${all.length.toLocaleString("en-US")} parameters: the first ${maxParams} and the probed and required ones`}</CutNote>
      ) : null}
    </div>
  );
}
