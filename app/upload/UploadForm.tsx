"use client";

import Link from "next/link";
import { useRef, useState } from "react";
import { Ident } from "@/app/_components/Breakable";
import type { IngestSummary } from "@/lib/ingest/pipeline";
import { runHref } from "@/lib/runPath";

/** The upload's answer: ingest's summary, with the ingest's id (its page is /ingests/ID). */
type UploadSummary = IngestSummary & { ingest?: number | null };

type State =
  | { kind: "idle" }
  | { kind: "uploading"; sent: number; total: number }
  | { kind: "ingesting" }
  /** `stopped`: why reading ended early (past the limit, a broken gzip file); the summary is what was kept. */
  | { kind: "done"; summary: UploadSummary; stopped?: string }
  | { kind: "error"; message: string };

/** How the summary names the format a file was read as. */
const FORMAT_NAMES: Record<string, string> = {
  trace: "assumeprobe traces",
  when2call: "When2Call records",
  otlp: "OTLP JSON",
  phoenix: "Phoenix spans",
  promptfoo: "promptfoo results",
  inspect: "an Inspect AI log",
  langfuse: "Langfuse export",
};

/** What a format's skipped values are, in its own words (default: spans). */
const SKIPPED: Record<string, string> = { langfuse: "observations that are no generation" };

/** Sizes as people read them: bytes, KB below a megabyte, MB above. */
const size = (n: number) => {
  if (n < 1024) return `${n} bytes`;
  if (n < 1048576) return `${Math.round(n / 1024)} KB`;
  return `${(n / 1048576).toFixed(n < 10 * 1048576 ? 1 : 0)} MB`;
};

/** Drag and drop or pick a file, name the run and probe, and watch it go in. */
export function UploadForm({ probes, maxBytes }: { probes: string[]; maxBytes: number }) {
  const [file, setFile] = useState<File | null>(null);
  const [over, setOver] = useState(false);
  const [state, setState] = useState<State>({ kind: "idle" });
  const input = useRef<HTMLInputElement>(null);
  const tooBig = file !== null && file.size > maxBytes;

  const choose = (f: File | undefined) => {
    if (!f) return;
    setFile(f);
    setState({ kind: "idle" });
  };

  const submit = (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!file || tooBig) return;
    const form = new FormData(e.currentTarget);
    const params = new URLSearchParams({ filename: file.name });
    for (const k of ["run", "model", "probe", "format"]) {
      const v = String(form.get(k) ?? "").trim();
      if (v) params.set(k, v);
    }
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/upload?${params}`);
    xhr.upload.onprogress = (ev) =>
      setState({ kind: "uploading", sent: ev.loaded, total: ev.total || file.size });
    xhr.upload.onload = () => setState({ kind: "ingesting" });
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      const b = body as (UploadSummary & { error?: string }) | null;
      // A summary comes back whenever records were read, with `error` when reading stopped early.
      if (b && typeof b.records === "number")
        setState({ kind: "done", summary: b, stopped: xhr.status === 200 ? undefined : b.error });
      else {
        const msg = b?.error ?? `the server answered ${xhr.status}`;
        setState({ kind: "error", message: msg });
      }
    };
    xhr.onerror = () => setState({ kind: "error", message: "the upload did not reach the server" });
    setState({ kind: "uploading", sent: 0, total: file.size });
    xhr.send(file);
  };

  const busy = state.kind === "uploading" || state.kind === "ingesting";
  return (
    <form onSubmit={submit} className="space-y-4" data-testid="upload-form">
      <button
        type="button"
        onClick={() => input.current?.click()}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          choose(e.dataTransfer.files[0]);
        }}
        className={`flex w-full cursor-pointer flex-col items-center justify-center rounded-lg border-2 border-dashed p-8 text-center ${
          over ? "border-indigo-500 bg-indigo-50" : "border-slate-300 bg-white hover:bg-slate-50"
        }`}
        data-testid="drop-zone"
      >
        <span className="text-sm text-slate-700">
          {file ? (
            <>
              <span className="font-mono font-medium">{file.name}</span> · {size(file.size)}
            </>
          ) : (
            "Drop a trace file here (JSONL, OTLP JSON, Phoenix spans, promptfoo results, Inspect .eval/.json, Langfuse exports; gzip accepted), or press to choose one"
          )}
        </span>
        <span className="mt-1 text-xs text-slate-500">
          Limit {size(maxBytes)} per upload; larger files go through the command line.
        </span>
      </button>
      <input
        ref={input}
        type="file"
        accept=".jsonl,.json,.gz,.ndjson,.eval,application/json,application/x-ndjson,application/gzip,application/zip"
        className="sr-only"
        // The drop zone above opens it: one tab stop, not a second invisible one.
        tabIndex={-1}
        onChange={(e) => choose(e.target.files?.[0])}
        data-testid="file-input"
      />
      {tooBig ? (
        <p role="alert" className="rounded bg-red-50 p-2 text-sm text-red-800" data-testid="too-big">
          {file?.name} is {size(file?.size ?? 0)}, over the upload limit of {size(maxBytes)}. Ingest it from
          the command line instead: <code className="font-mono">npx assumeprobe ingest {file?.name}</code>
        </p>
      ) : null}
      <div className="grid gap-3 sm:grid-cols-2">
        <label className="flex min-w-0 flex-col text-sm text-slate-700">
          Run name
          <input
            name="run"
            placeholder="default: the run each record names, else the file's name"
            className="mt-1 w-full min-w-0 rounded border border-slate-300 px-2 py-1.5"
            data-testid="run-input"
          />
        </label>
        <label className="flex min-w-0 flex-col text-sm text-slate-700">
          Model
          <input
            name="model"
            placeholder="for records that name none (default: unknown)"
            className="mt-1 w-full min-w-0 rounded border border-slate-300 px-2 py-1.5"
          />
        </label>
        <label className="flex min-w-0 flex-col text-sm text-slate-700">
          Probe
          <select
            name="probe"
            defaultValue=""
            className="mt-1 w-full min-w-0 rounded border border-slate-300 bg-white px-2 py-1.5"
            data-testid="probe-select"
          >
            <option value="">default</option>
            {probes.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
          <span className="mt-0.5 text-xs text-slate-500">
            for records that name no probe (default: schedule_window; OTLP and Phoenix spans, promptfoo
            results, Inspect logs, Langfuse generations: the probe of the tools they offer or call)
          </span>
        </label>
        <label className="flex min-w-0 flex-col text-sm text-slate-700">
          Format
          <select
            name="format"
            defaultValue="auto"
            className="mt-1 w-full min-w-0 rounded border border-slate-300 bg-white px-2 py-1.5"
            data-testid="format-select"
          >
            <option value="auto">told from the content</option>
            <option value="trace">assumeprobe traces (also seed output, provider payloads)</option>
            <option value="otlp">OTLP JSON (OpenTelemetry)</option>
            <option value="phoenix">Phoenix spans</option>
            <option value="promptfoo">promptfoo results (eval -o FILE.json)</option>
            <option value="inspect">Inspect AI log (.eval or .json)</option>
            <option value="langfuse">Langfuse export (Download JSON, observations)</option>
            <option value="when2call">When2Call records</option>
          </select>
        </label>
      </div>
      <button
        type="submit"
        disabled={!file || tooBig || busy}
        className="rounded bg-slate-900 px-4 py-2 text-sm text-white disabled:opacity-50"
        data-testid="upload-submit"
      >
        {busy ? "Working…" : "Upload and ingest"}
      </button>
      <Status state={state} />
    </form>
  );
}

function Status({ state }: { state: State }) {
  if (state.kind === "uploading") {
    const p = state.total ? state.sent / state.total : 0;
    return (
      <div className="space-y-1" data-testid="upload-progress">
        <div className="h-2 w-full rounded bg-slate-200">
          <div className="h-2 rounded bg-indigo-600" style={{ width: `${Math.round(p * 100)}%` }} />
        </div>
        <p className="text-xs text-slate-600">
          Uploading {size(state.sent)} of {size(state.total)}
        </p>
      </div>
    );
  }
  if (state.kind === "ingesting")
    return <p className="text-sm text-slate-600">Uploaded; scoring and storing the records…</p>;
  if (state.kind === "error") {
    return (
      <p role="alert" className="rounded bg-red-50 p-3 text-sm text-red-800" data-testid="upload-error">
        {state.message}
      </p>
    );
  }
  if (state.kind !== "done") return null;
  const s = state.summary;
  return (
    <div className="space-y-2 rounded-lg border border-slate-200 bg-white p-4" data-testid="upload-summary">
      {state.stopped ? (
        <p role="alert" className="rounded bg-red-50 p-2 text-sm text-red-800" data-testid="upload-stopped">
          The upload stopped early: {state.stopped}.
        </p>
      ) : null}
      {s.records === 0 && !state.stopped ? (
        <p className="text-sm text-slate-600" data-testid="upload-empty">
          The file holds no records: it is empty or has only blank lines.
        </p>
      ) : null}
      <p className="text-sm">
        <strong>{s.records.toLocaleString("en-US")}</strong> record{s.records === 1 ? "" : "s"}:{" "}
        <strong>{s.ingested.toLocaleString("en-US")}</strong> ingested, {s.duplicates.toLocaleString("en-US")}{" "}
        already stored,{" "}
        <strong className={s.rejected ? "text-red-700" : ""}>{s.rejected.toLocaleString("en-US")}</strong>{" "}
        rejected.{" "}
        <Link
          href={s.ingest ? `/ingests/${s.ingest}` : "/ingests"}
          className="text-indigo-700 underline"
          data-testid="summary-ingest"
        >
          {s.ingest ? `Ingest #${s.ingest}` : "Recent ingests"}
        </Link>
      </p>
      {(s.formats ?? []).map((f) => (
        <p key={f.file} className="text-sm text-slate-700" data-testid="summary-format">
          Read as <strong>{FORMAT_NAMES[f.format] ?? f.format}</strong>
          <span className="text-slate-500"> ({f.evidence})</span>
          {s.spans_skipped
            ? `; ${s.spans_skipped.toLocaleString("en-US")} ${SKIPPED[f.format] ?? "spans that are no model generation"} skipped`
            : ""}
          .
        </p>
      ))}
      {s.runs.length > 0 ? (
        <ul className="text-sm">
          {s.runs.map((r) => (
            <li key={r.name}>
              <Link
                href={runHref(r.name)}
                className="font-mono text-indigo-700 underline"
                data-testid="summary-run"
              >
                <Ident text={r.name} />
              </Link>{" "}
              · {r.ingested.toLocaleString("en-US")} new traces
            </li>
          ))}
        </ul>
      ) : null}
      {s.errors.length > 0 ? (
        <div>
          <p className="text-sm font-medium text-red-800">Rejected records</p>
          <ul className="max-h-64 overflow-auto font-mono text-xs" data-testid="upload-errors">
            {s.errors.slice(0, 500).map((e) => (
              <li key={`${e.file}:${e.line}:${e.reason}`}>
                {e.file} line {e.line}: {e.reason}
              </li>
            ))}
          </ul>
          {s.errors.length > 500 || s.errors_omitted ? (
            <p className="text-xs text-slate-500">Only the first 500 are shown.</p>
          ) : null}
        </div>
      ) : null}
      {s.warnings?.length ? (
        <div>
          <p className="text-sm font-medium text-amber-800">Warnings (the records were kept)</p>
          <ul className="max-h-64 overflow-auto font-mono text-xs" data-testid="upload-warnings">
            {s.warnings.slice(0, 500).map((w) => (
              <li key={`${w.file}:${w.line}:${w.reason}`}>
                {w.file} line {w.line}: {w.reason}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
