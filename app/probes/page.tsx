import Link from "next/link";
import { builtinProbes } from "@/lib/probe/builtin";
import { compileProbe } from "@/lib/probe/compile";

export const metadata = { title: "Probes" };

export default function ProbesPage() {
  const probes = [...builtinProbes().values()];
  return (
    <div>
      <h1 className="text-xl font-semibold">Probes</h1>
      <p className="mt-1 text-sm text-slate-600">
        Each probe is one closed world: what the model sees, what is true, and the tool whose call is scored.
      </p>
      <ul
        className="mt-4 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white"
        data-testid="probe-list"
      >
        {probes.map((p) => (
          <li key={p.id} className="px-4 py-3">
            <Link
              href={`/probes/${encodeURIComponent(p.id)}`}
              className="font-mono font-medium text-indigo-700 hover:underline"
            >
              {p.id}
            </Link>
            {p.title ? <span className="ml-3 text-sm text-slate-600">{p.title}</span> : null}
            <div className="mt-1 text-xs text-slate-500">
              tool {p.tool?.name ?? "none"} · probed fields {compileProbe(p).fields.join(", ") || "none"}
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
