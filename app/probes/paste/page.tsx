import type { Metadata } from "next";
import { PasteForm } from "./PasteForm";

export const metadata: Metadata = { title: "Paste a probe" };

export default function PasteProbePage() {
  return (
    <div className="max-w-3xl space-y-3">
      <h1 className="text-xl font-semibold">Paste a probe</h1>
      <p className="text-sm text-slate-600">
        A probe’s JSON, as in <code>fixtures/probes/</code>: validated like a probe file; an error names the
        path of what was wrong. An id that exists gets a new version.
      </p>
      <PasteForm />
    </div>
  );
}
