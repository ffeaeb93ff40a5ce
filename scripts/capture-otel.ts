/**
 * Captures real OTLP JSON written by the OpenAI instrumentations on npm (OpenLLMetry's
 * `@traceloop/instrumentation-openai`, OpenInference's `@arizeai/openinference-instrumentation-openai`):
 * the official `openai` SDK is driven against the fake chat-completions server on loopback
 * (lib/runner/testServer.ts) and each instrumentation's spans go through the OpenTelemetry SDK's
 * OTLP/HTTP JSON exporter to a small receiver on loopback, which appends each request body it
 * receives, byte for byte, as one line (the collector file exporter's JSON Lines).
 *
 *   npx tsx scripts/capture-otel.ts [OUT_DIR]   (default fixtures/testdata/otel)
 *
 * Each instrumentation runs in a process of its own: both patch the SDK's prototypes.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { OpenAIInstrumentation as OpenInferenceOpenAI } from "@arizeai/openinference-instrumentation-openai";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { NodeTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-node";
import { OpenAIInstrumentation as TraceloopOpenAI } from "@traceloop/instrumentation-openai";
import OpenAI from "openai";
import { startChatServer, toolCall } from "../lib/runner/testServer";
import { SCHEDULE_WINDOW_TOOLS } from "./captureTools";

const KINDS = {
  openllmetry: "openllmetry-openai.otlp.jsonl",
  openinference: "openinference-openai.otlp.jsonl",
} as const;
type Kind = keyof typeof KINDS;

const TOOLS = SCHEDULE_WINDOW_TOOLS;
const ASK = "Schedule a maintenance window for user u_9182 starting 2026-09-08T09:00:00.";

/** A receiver of OTLP/HTTP JSON on loopback: each POST /v1/traces body, as received, one a line. */
async function startReceiver(): Promise<{ url: string; lines: string[]; close(): Promise<void> }> {
  const lines: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const type = req.headers["content-type"] ?? "";
      if (req.method !== "POST" || req.url !== "/v1/traces" || !type.startsWith("application/json")) {
        res.writeHead(415).end();
        return;
      }
      const body = Buffer.concat(chunks).toString("utf8");
      JSON.parse(body); // the exporter's JSON, or the capture fails here
      lines.push(body);
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    lines,
    close: () => new Promise((ok) => server.close(() => ok())),
  };
}

/** One instrumentation: a tool call, then a question, each a chat completion with the tool offered. */
async function capture(kind: Kind, out: string): Promise<void> {
  const receiver = await startReceiver();
  const chat = await startChatServer([
    {
      message: {
        content: null,
        tool_calls: [
          toolCall("schedule_window", {
            user_id: "u_9182",
            starts_at: "2026-09-08T09:00:00",
            timezone: "UTC",
          }),
        ],
      },
      model: "gpt-4o-mini-2024-07-18",
    },
    { message: { content: "Which time zone should the window use?" }, model: "gpt-4o-mini-2024-07-18" },
  ]);
  const provider = new NodeTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: receiver.url }))],
  });
  if (kind === "openllmetry") {
    const inst = new TraceloopOpenAI({ traceContent: true, enrichTokens: false });
    inst.setTracerProvider(provider);
    inst.manuallyInstrument(OpenAI);
  } else {
    const inst = new OpenInferenceOpenAI({ tracerProvider: provider });
    inst.manuallyInstrument({ OpenAI } as unknown as Parameters<typeof inst.manuallyInstrument>[0]);
  }
  const client = new OpenAI({ baseURL: chat.baseURL, apiKey: "sk-test", maxRetries: 0 });
  for (let i = 0; i < 2; i++) {
    await client.chat.completions.create({
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: "You schedule maintenance windows. Ask when something is missing." },
        { role: "user", content: ASK },
      ],
      tools: TOOLS,
      temperature: 0,
    });
  }
  await provider.forceFlush();
  await provider.shutdown();
  await chat.close();
  await receiver.close();
  if (receiver.lines.length === 0) throw new Error(`${kind}: the receiver got no spans`);
  writeFileSync(out, receiver.lines.map((l) => `${l}\n`).join(""));
  console.log(`${kind}: ${receiver.lines.length} export requests -> ${out}`);
}

const [, , first, second, third] = process.argv;
if (first === "--child") {
  await capture(second as Kind, third);
} else {
  const dir = resolve(first ?? join(import.meta.dirname, "..", "fixtures", "testdata", "otel"));
  for (const [kind, file] of Object.entries(KINDS)) {
    const r = spawnSync(
      process.execPath,
      ["--import", "tsx", import.meta.filename, "--child", kind, join(dir, file)],
      {
        stdio: "inherit",
      },
    );
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
}
