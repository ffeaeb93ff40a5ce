import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliSandbox } from "./testCli";

// OTLP JSON written by the instrumentation packages themselves (scripts/capture-otel.ts: the
// openai SDK against a fake OpenAI server on loopback, exported over OTLP/HTTP JSON to a
// receiver on loopback; fixtures/testdata/otel/SOURCES.md). Everything expected below was
// written by hand from reading each file: its span ids, models, tool calls and texts.

const box = cliSandbox("otel-captured");
afterAll(box.cleanup);
const DATA = join(import.meta.dirname, "..", "..", "fixtures", "testdata", "otel");

interface Row {
  ext_id: string;
  form: string;
  model: string;
  payload_model: string | null;
  probe_id: string;
  response: string;
  labels: string;
  flags: string;
}
const rows = (source: string) =>
  box
    .query<Row>(
      `SELECT ext_id, form, model, payload_model, probe_id, response, labels, json_extract(result, '$.flags') AS flags
         FROM traces WHERE source = ? ORDER BY id`,
      source,
    )
    .map((r) => ({
      ...r,
      response: JSON.parse(r.response),
      labels: JSON.parse(r.labels),
      flags: JSON.parse(r.flags),
    }));

const ASKED = "Which time zone should the window use?";
const ARGS = { user_id: "u_9182", starts_at: "2026-09-08T09:00:00", timezone: "UTC" };

async function ingest(name: string) {
  const file = join(DATA, name);
  const r = await box.run(["ingest", file, "--format", "auto", "--json"]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  const s = JSON.parse(r.lines[r.lines.length - 1]);
  expect(s).toMatchObject({ records: 2, ingested: 2, rejected: 0 });
  expect(s.formats).toEqual([{ file, format: "otlp", evidence: "resourceSpans holding scopeSpans" }]);
}

describe("ingest --format auto, no other flags, on files the instrumentations wrote", {
  timeout: 120_000,
}, () => {
  it("OpenLLMetry's OpenAI instrumentation (GenAI messages as JSON strings): the call, then the question", async () => {
    await ingest("openllmetry-openai.otlp.jsonl");
    expect(rows("openllmetry-openai.otlp")).toEqual([
      {
        ext_id: "89a483589c6b6dc63b40d85d0be5b159:d30806bff6b62157",
        form: "otlp",
        model: "gpt-4o-mini",
        payload_model: "gpt-4o-mini-2024-07-18",
        probe_id: "schedule_window",
        // gen_ai.output.messages: a tool_call part whose arguments are an object.
        response: { text: null, tool_calls: [{ name: "schedule_window", arguments: ARGS }], fenced: false },
        labels: { timezone: "INJECT", severity: "OMIT" },
        flags: [],
      },
      {
        ext_id: "8e1f62036a6116f19465a4e01ca7b1c5:1332ed459c961a6b",
        form: "otlp",
        model: "gpt-4o-mini",
        payload_model: "gpt-4o-mini-2024-07-18",
        probe_id: "schedule_window",
        response: { text: ASKED, tool_calls: [], fenced: false },
        labels: { timezone: "ASK", severity: "DRIFT" },
        flags: [],
      },
    ]);
  });

  it("OpenInference's OpenAI instrumentation (flattened llm.output_messages): the call, then the question", async () => {
    await ingest("openinference-openai.otlp.jsonl");
    expect(rows("openinference-openai.otlp")).toEqual([
      {
        ext_id: "e676bf9454fce7babde7841e2fbe6b8d:43e873456fc6540b",
        form: "otlp",
        // The request's model from llm.invocation_parameters; llm.model_name is the response's.
        model: "gpt-4o-mini",
        payload_model: "gpt-4o-mini-2024-07-18",
        probe_id: "schedule_window",
        // tool_call.function.arguments: a JSON string, kept as sent.
        response: {
          text: null,
          tool_calls: [{ name: "schedule_window", arguments: JSON.stringify(ARGS) }],
          fenced: false,
        },
        labels: { timezone: "INJECT", severity: "OMIT" },
        flags: [],
      },
      {
        ext_id: "75d1d8c7394a6523e8c03d4863d66764:cb33b9e8dd323a0d",
        form: "otlp",
        model: "gpt-4o-mini",
        payload_model: "gpt-4o-mini-2024-07-18",
        probe_id: "schedule_window",
        response: { text: ASKED, tool_calls: [], fenced: false },
        labels: { timezone: "ASK", severity: "DRIFT" },
        flags: [],
      },
    ]);
  });
});
