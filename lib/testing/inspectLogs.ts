import yazl from "yazl";

/**
 * Inspect logs built in tests (the tests of real logs read fixtures/inspect/): samples in Inspect's
 * own shape (a model event a generation, as inspect_ai writes them) and `.eval` zips written with
 * yazl, with the ways a zip goes wrong (a cut central directory, a corrupt or zstd entry).
 */

/** The tools every model event of fixtures/inspect/browser.json offered, in its order. */
export const BROWSER_LOG_TOOLS = [
  "web_browser_go",
  "web_browser_click",
  "web_browser_type_submit",
  "web_browser_type",
  "web_browser_scroll",
  "web_browser_back",
  "web_browser_forward",
  "web_browser_refresh",
];

export interface CallSpec {
  function: string;
  arguments: Record<string, unknown>;
  parse_error?: string;
}

export interface GenerationSpec {
  content: string;
  calls?: CallSpec[];
}

export interface ToolSpec {
  name: string;
  description?: string;
  /** Property names: required ones, then optional ones. */
  required: string[];
  optional?: string[];
}

/** An Inspect ToolInfo: `{name, description, parameters}` with a JSON schema of string properties. */
export function toolInfo(t: ToolSpec): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const p of [...t.required, ...(t.optional ?? [])]) properties[p] = { type: "string", description: p };
  return {
    name: t.name,
    description: t.description ?? `${t.name} does it`,
    parameters: { type: "object", properties, required: t.required, additionalProperties: false },
  };
}

/** A sample: a system and a user message, then one model event (and assistant message) a generation. */
export function inspectSample(o: {
  id: string | number;
  epoch?: number;
  model?: string;
  system?: string;
  user?: string;
  tools?: ToolSpec[];
  generations: GenerationSpec[];
  metadata?: Record<string, unknown>;
}): Record<string, unknown> {
  const model = o.model ?? "openai/gpt-4o-mini";
  const input = [
    { id: "m0", role: "system", content: o.system ?? "You book things." },
    { id: "m1", role: "user", source: "input", content: o.user ?? "Book it." },
  ];
  const messages: Record<string, unknown>[] = [...input];
  const events: Record<string, unknown>[] = [
    { event: "sample_init", timestamp: "2026-09-08T09:00:00+00:00" },
  ];
  o.generations.forEach((g, i) => {
    const message = {
      id: `a${i}`,
      role: "assistant",
      content: g.content,
      source: "generate",
      model: model.split("/").pop(),
      tool_calls: (g.calls ?? []).map((c, j) => ({
        id: `call_${i}_${j}`,
        function: c.function,
        arguments: c.arguments,
        ...(c.parse_error ? { parse_error: c.parse_error } : {}),
        type: "function",
      })),
    };
    events.push({
      timestamp: `2026-09-08T09:00:${String(10 + i).padStart(2, "0")}+00:00`,
      event: "model",
      model,
      input: [...messages],
      tools: (o.tools ?? []).map(toolInfo),
      tool_choice: "auto",
      config: {},
      output: {
        model: model.split("/").pop(),
        choices: [{ message, stop_reason: message.tool_calls.length ? "tool_calls" : "stop" }],
        time: 0.5,
      },
    });
    messages.push(message);
    for (const c of message.tool_calls)
      messages.push({ role: "tool", tool_call_id: c.id, function: c.function, content: "ok" });
  });
  return {
    id: o.id,
    epoch: o.epoch ?? 1,
    input: o.user ?? "Book it.",
    target: "",
    messages,
    output: { model: model.split("/").pop(), choices: [] },
    scores: {},
    metadata: o.metadata ?? {},
    store: {},
    events,
    attachments: {},
  };
}

/** An EvalLog's header (`header.json`, or `_journal/start.json`'s shape). */
export function evalHeader(model = "openai/gpt-4o-mini"): Record<string, unknown> {
  return {
    version: 2,
    status: "success",
    eval: { run_id: "r1", created: "2026-09-08T09:00:00+00:00", task: "booking", task_id: "t1", model },
    plan: { name: "plan", steps: [] },
  };
}

export interface ZipEntry {
  name: string;
  data: string | Buffer;
  /** Deflate (default) or stored. */
  compress?: boolean;
}

/** A zip of the entries, in order, written by yazl. */
export function buildZip(entries: ZipEntry[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const e of entries)
    zip.addBuffer(typeof e.data === "string" ? Buffer.from(e.data) : e.data, e.name, {
      compress: e.compress ?? true,
      mtime: new Date("2026-09-08T09:00:00Z"),
    });
  zip.end();
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    zip.outputStream.on("data", (c: Buffer) => parts.push(c));
    zip.outputStream.on("end", () => resolve(Buffer.concat(parts)));
    zip.outputStream.on("error", reject);
  });
}

/** A `.eval` log: `header.json` and one `samples/ID_epoch_N.json` a sample (or the entries given). */
export function buildEvalLog(samples: Record<string, unknown>[], extra: ZipEntry[] = []): Promise<Buffer> {
  return buildZip([
    ...samples.map((s) => ({ name: `samples/${s.id}_epoch_${s.epoch}.json`, data: JSON.stringify(s) })),
    ...extra,
    { name: "header.json", data: JSON.stringify(evalHeader()) },
  ]);
}

/** Where an entry's local header and central directory record are in a zip. */
function headersOf(zip: Buffer, name: string): { local: number; central: number } {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = zip.readUInt32LE(eocd + 16);
  const count = zip.readUInt16LE(eocd + 10);
  for (let i = 0; i < count; i++) {
    const nameLen = zip.readUInt16LE(at + 28);
    const entry = zip.subarray(at + 46, at + 46 + nameLen).toString("utf8");
    if (entry === name) return { local: zip.readUInt32LE(at + 42), central: at };
    at += 46 + nameLen + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  throw new Error(`no entry ${name}`);
}

/** The zip with an entry's compression method changed (93: zstd, which Node 20 cannot inflate). */
export function withMethod(zip: Buffer, name: string, method: number): Buffer {
  const out = Buffer.from(zip);
  const h = headersOf(out, name);
  out.writeUInt16LE(method, h.local + 8);
  out.writeUInt16LE(method, h.central + 10);
  return out;
}

/** The zip with an entry's compressed data garbled (its inflate fails). */
export function withCorruptEntry(zip: Buffer, name: string): Buffer {
  const out = Buffer.from(zip);
  const h = headersOf(out, name);
  const start = h.local + 30 + out.readUInt16LE(h.local + 26) + out.readUInt16LE(h.local + 28);
  const size = out.readUInt32LE(h.central + 20);
  for (let i = 0; i < Math.min(size, 24); i++) out[start + i] = 0xff;
  return out;
}
