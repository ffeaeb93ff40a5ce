import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inspectGenerations } from "../formats/inspect";
import { BROWSER_LOG_TOOLS, inspectSample } from "../testing/inspectLogs";
import {
  draftFromRecord,
  optionalProperties,
  parseProbe,
  probeableProperties,
  probeFromDraft,
} from "./fromTrace";
import { rejectedWhatIf } from "./rejectedWhatIf";
import { scheduleWindow } from "./testProbes";

const LANGFUSE = join(import.meta.dirname, "..", "..", "fixtures", "langfuse");

const bookParams = {
  type: "object",
  properties: { room: { type: "string" }, floor: { type: "string" }, when: { type: "string" } },
  required: ["when"],
};

describe("draftFromRecord", () => {
  it("reads OpenAI chat tools and the system and user messages", () => {
    const d = draftFromRecord({
      model: "gpt-4o",
      tools: [
        {
          type: "function",
          function: { name: "book_room", description: "Books a room", parameters: bookParams },
        },
      ],
      messages: [
        { role: "system", content: "You book rooms." },
        { role: "user", content: "Book a room at 10." },
        { role: "assistant", content: "Which room?" },
      ],
    });
    expect(d.tools).toEqual([
      { name: "book_room", description: "Books a room", parameters: bookParams, mutating: true },
    ]);
    expect(d.system).toBe("You book rooms.");
    expect(d.user).toBe("Book a room at 10.");
    expect(optionalProperties(d.tools[0])).toEqual(["room", "floor"]);
  });

  it("reads Anthropic tools (input_schema), a system beside the messages and content blocks", () => {
    const d = draftFromRecord({
      request: {
        system: [{ type: "text", text: "Be careful." }],
        tools: [{ name: "book_room", input_schema: bookParams }],
        messages: [{ role: "user", content: [{ type: "text", text: "A room please." }] }],
      },
    });
    expect(d.tools.map((t) => [t.name, t.parameters])).toEqual([["book_room", bookParams]]);
    expect(d.system).toBe("Be careful.");
    expect(d.user).toBe("A room please.");
  });

  it("reads an OTLP span's gen_ai.tool.definitions and input messages", () => {
    const attr = (key: string, v: unknown) => ({ key, value: { stringValue: JSON.stringify(v) } });
    const d = draftFromRecord({
      traceId: "t",
      spanId: "s",
      attributes: [
        attr("gen_ai.tool.definitions", [{ type: "function", name: "book_room", parameters: bookParams }]),
        attr("gen_ai.input.messages", [{ role: "user", parts: [{ type: "text", content: "Room at 10" }] }]),
      ],
    });
    expect(d.tools.map((t) => t.name)).toEqual(["book_room"]);
    expect(d.user).toBe("Room at 10");
  });

  it("a request with no tools drafts none", () => {
    const d = draftFromRecord({ messages: [{ role: "user", content: "hi" }] });
    expect(d.tools).toEqual([]);
    expect(d.user).toBe("hi");
    expect(draftFromRecord("not a request").tools).toEqual([]);
  });
});

describe("draftFromRecord on Langfuse generations (real exports, fixtures/langfuse)", () => {
  const generation = (file: string, id: string) => {
    const doc = JSON.parse(readFileSync(join(LANGFUSE, file), "utf8"));
    return (doc.observations as { id: string }[]).find((o) => o.id === id);
  };

  it("Vercel AI SDK: the tools of metadata.tools (JSON strings, inputSchema) and the user message", () => {
    const d = draftFromRecord(generation("vercel-aisdk-2025-11-17.trace.json", "91a17a2274bfd23f"));
    expect(d.tools).toEqual([
      {
        name: "getWeather",
        description: "Get the weather in a location",
        parameters: {
          $schema: "http://json-schema.org/draft-07/schema#",
          type: "object",
          properties: { location: { description: "The location to get the weather for", type: "string" } },
          required: ["location"],
          additionalProperties: false,
        },
        mutating: true,
      },
    ]);
    expect(d).toMatchObject({ system: "", user: "What is the weather like today in San Francisco?" });
  });

  it("OpenAI Agents SDK: OpenInference llm.tools, the Responses input, the instructions as the system", () => {
    const d = draftFromRecord(generation("openai-agents-2025-09-30.trace.json", "98870087af69bf06"));
    expect(d.tools.map((t) => [t.name, optionalProperties(t), t.parameters.required])).toEqual([
      ["get_weather", [], ["city"]],
    ]);
    expect(d).toMatchObject({ system: "You are a helpful agent.", user: "What's the weather in Tokyo?" });
  });

  it("Google ADK: Gemini function_declarations and system_instruction in the input's config, contents as messages", () => {
    const d = draftFromRecord(generation("google-adk-2025-08-28.trace.json", "f6e4c65297e40c96"));
    expect(d.tools.map((t) => t.name)).toEqual(["say_hello"]);
    expect(d.system).toBe(
      'Always greet using the say_hello tool.\n\nYou are an agent. Your internal name is "hello_agent".',
    );
    expect(d.user).toBe("hi");
  });

  it("LangGraph (Python): the tool bound as a role tool message; pydantic-ai: its function tools and GenAI parts", () => {
    const lg = draftFromRecord(generation("langgraph-python-2025-08-22.trace.json", "4f6535aaebcda355"));
    expect(lg.tools.map((t) => [t.name, t.description])).toEqual([["Web-Search", "Dummy web search tool."]]);
    expect(lg.user).toBe("Be helpful!\n\nSearch the web for 'example' and summarize.");
    const pd = draftFromRecord(generation("pydantic-ai-tools-2025-12-04.trace.json", "eb0cc14cf7943ad5"));
    expect(pd.tools.map((t) => [t.name, Object.keys(t.parameters.properties as object)])).toEqual([
      ["final_result", ["quality", "feedback"]],
    ]);
    expect(pd).toMatchObject({
      system: "You are a joke critic. Evaluate if the joke is funny and well-crafted.",
      user: "Rate this joke:\n\nWhy do programmers hate nature?  \nIt has too many bugs!",
    });
  });

  it("agno: an input it cannot read falls back to the OpenInference attributes its metadata keeps", () => {
    const d = draftFromRecord(generation("agno-2025-06-11.trace.json", "ca136de468e156c9"));
    expect(d.tools.map((t) => t.name)).toEqual(["duckduckgo_search", "duckduckgo_news"]);
    expect(d.user).toBe("What is currently trending on Twitter?");
    expect(d.system).toBe(
      "<additional_information>\n- Use markdown to format your answers.\n</additional_information>",
    );
  });
});

describe("probeFromDraft", () => {
  const draft = draftFromRecord({
    tools: [{ type: "function", function: { name: "book_room", parameters: bookParams } }],
    messages: [{ role: "user", content: "Book a room at 10." }],
  });

  it("makes a valid probe with the chosen fields and hidden facts", () => {
    const r = probeFromDraft(draft, {
      id: "book_room",
      tool: "book_room",
      fields: ["room"],
      hidden: { room: "4B" },
    });
    if (!r.ok) throw new Error(r.error);
    expect(r.probe.fields).toEqual(["room"]);
    expect(r.probe.hidden).toEqual({ room: "4B" });
    expect(r.probe.user).toBe("Book a room at 10.");
    expect(r.probe.tool?.name).toBe("book_room");
  });

  it("probes a required property too: the request may leave it out, and a model must then make it up or ask", () => {
    const r = probeFromDraft(draft, {
      id: "x",
      tool: "book_room",
      fields: ["when"],
      hidden: { when: "11:00" },
    });
    if (!r.ok) throw new Error(r.error);
    expect(r.probe.fields).toEqual(["when"]);
    expect(probeableProperties(draft.tools[0])).toEqual([
      { name: "room", required: false },
      { name: "floor", required: false },
      { name: "when", required: true },
    ]);
  });

  it("refuses a field the schema does not have, no field and a bad id, naming what was wrong", () => {
    expect(probeFromDraft(draft, { id: "x", tool: "book_room", fields: ["wen"], hidden: {} })).toEqual({
      ok: false,
      error: 'fields: "wen" is not a property of book_room',
    });
    expect(probeFromDraft(draft, { id: "x", tool: "book_room", fields: [], hidden: {} }).ok).toBe(false);
    const bad = probeFromDraft(draft, { id: "has space", tool: "book_room", fields: ["room"], hidden: {} });
    expect(bad.ok === false && bad.error.startsWith("id:")).toBe(true);
  });
});

describe("parseProbe (the paste page)", () => {
  it("accepts a valid probe's JSON", () => {
    const r = parseProbe(JSON.stringify({ id: "p1", user: "hello" }));
    expect(r.ok).toBe(true);
  });
  it("names the path of what was wrong", () => {
    const r = parseProbe(JSON.stringify({ id: "p1", user: "hi", tool: { name: "", parameters: {} } }));
    expect(r).toMatchObject({ ok: false });
    if (r.ok) return;
    expect(r.error).toMatch(/^tool\.name: /);
    const missing = parseProbe("{}");
    expect(!missing.ok && missing.error).toMatch(/id: .*; user: /);
    expect(parseProbe("{nope")).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^\(top\): not JSON/),
    });
    expect(parseProbe(JSON.stringify({ id: "p", user: "u", extra: 1 }))).toMatchObject({
      ok: false,
      error: expect.stringContaining("extra"),
    });
  });
});

describe("rejectedWhatIf", () => {
  const attr = (key: string, v: unknown) => ({ key, value: { stringValue: JSON.stringify(v) } });
  const span = (id: string, call: Record<string, unknown> | null, tool = "book_room") =>
    JSON.stringify({
      traceId: "t1",
      spanId: id,
      attributes: [
        { key: "gen_ai.operation.name", value: { stringValue: "chat" } },
        attr("gen_ai.tool.definitions", [{ type: "function", name: tool, parameters: bookParams }]),
        attr("gen_ai.input.messages", [
          { role: "user", parts: [{ type: "text", content: "Book a room at 10" }] },
        ]),
        attr("gen_ai.output.messages", [
          {
            role: "assistant",
            parts: call
              ? [{ type: "tool_call", name: tool, arguments: call }]
              : [{ type: "text", content: "Which room?" }],
          },
        ]),
      ],
    });
  const draft = draftFromRecord(JSON.parse(span("x", null)));
  const made = probeFromDraft(draft, {
    id: "book_room",
    tool: "book_room",
    fields: ["room"],
    hidden: { room: "4B" },
  });
  if (!made.ok) throw new Error(made.error);
  const probe = made.probe;

  it("counts the records it would match and the labels the scorer gives them", () => {
    const w = rejectedWhatIf(
      probe,
      [scheduleWindow()],
      [
        { id: 1, raw: span("a", { when: "10:00", room: "4B" }) },
        { id: 2, raw: span("b", { when: "10:00" }) },
        { id: 3, raw: span("c", null) },
        { id: 4, raw: span("d", { x: 1 }, "other_tool") },
        { id: 5, raw: "not json" },
      ],
    );
    expect(w.tried).toBe(4);
    expect(w.matched).toBe(3);
    expect(w.matchedIds).toEqual([1, 2, 3]);
    // 4B is hidden from the model: inventing it is INJECT; no value is OMIT; "Which room?" asks.
    expect(w.labels).toEqual({ room: { INJECT: 1, OMIT: 1, ASK: 1 } });
  });

  it("matches none when another stored probe offers the same tool (the ingest would refuse both)", () => {
    const twin = { ...probe, id: "book_room_old" };
    const w = rejectedWhatIf(probe, [twin], [{ id: 1, raw: span("a", { room: "4B" }) }]);
    expect(w.matched).toBe(0);
  });

  it("reads a rejected Langfuse generation as the ingest does (a real Vercel AI SDK export)", () => {
    const doc = JSON.parse(readFileSync(join(LANGFUSE, "vercel-aisdk-2025-11-17.trace.json"), "utf8"));
    const raw = JSON.stringify(doc.observations[1]);
    const d = draftFromRecord(doc.observations[1]);
    const weather = probeFromDraft(
      { ...d, tools: d.tools.map((t) => ({ ...t, parameters: { ...t.parameters, required: [] } })) },
      { id: "lf_weather", tool: "getWeather", fields: ["location"], hidden: { location: "Oakland" } },
    );
    if (!weather.ok) throw new Error(weather.error);
    const w = rejectedWhatIf(weather.probe, [scheduleWindow()], [{ id: 9, raw }]);
    // The call's "San Francisco" is two words: the visible set holds single words, so INJECT (typed by the user).
    expect(w).toMatchObject({ tried: 1, matched: 1, matchedIds: [9], labels: { location: { INJECT: 1 } } });
  });

  it("our records match when they name the probe's id", () => {
    const w = rejectedWhatIf(
      probe,
      [],
      [
        { id: 7, raw: JSON.stringify({ probe: "book_room", response: { text: "hi" } }) },
        { id: 8, raw: JSON.stringify({ probe: "nope", response: { text: "hi" } }) },
      ],
    );
    expect(w.matchedIds).toEqual([7]);
  });
});

describe("a probe drafted from an Inspect generation", () => {
  /** The generation records (what an ingest keeps and rejects) of a sample, as their text. */
  const records = (sample: unknown) => {
    const r = inspectGenerations(sample, { model: "openai/gpt-4o-mini" });
    if ("error" in r) throw new Error(r.error);
    return r.records.map((x) => JSON.stringify(x.value));
  };

  it("reads a real log's model event: its tools with their schemas, and its user message (an attachment) as the world", () => {
    const log = JSON.parse(readFileSync("fixtures/inspect/browser.json", "utf8"));
    const d = draftFromRecord(JSON.parse(records(log.samples[0])[1]));
    expect(d.tools.map((t) => t.name)).toEqual(BROWSER_LOG_TOOLS);
    expect(d.tools[1].parameters).toMatchObject({ type: "object", required: ["element_id"] });
    expect(d.tools[1].description.startsWith("Click an element on the page currently displayed")).toBe(true);
    expect(d.system).toBe("");
    expect(d.user).toBe(
      "Use the web browser tool to navigate to https://www.aisi.gov.uk/. Then, see if you can find a page on the site that describes the work of the UK AISI. Then, summarize this work in two paragraphs.",
    );
  });

  it("makes a probe whose what-if scores the sample's rejected generations", () => {
    const sample = inspectSample({
      id: "s1",
      system: "You reserve tables.",
      user: "Reserve a table for 4 at 19:00.",
      tools: [{ name: "reserve_table", required: ["time"], optional: ["party_size", "area"] }],
      generations: [
        {
          content: "",
          calls: [{ function: "reserve_table", arguments: { time: "19:00", party_size: "4" } }],
        },
        {
          content: "",
          calls: [{ function: "reserve_table", arguments: { time: "19:00", area: "terrace" } }],
        },
        { content: "Which area would you like?" },
      ],
    });
    const raws = records(sample);
    const d = draftFromRecord(JSON.parse(raws[0]));
    expect(d).toMatchObject({ system: "You reserve tables.", user: "Reserve a table for 4 at 19:00." });
    expect(optionalProperties(d.tools[0])).toEqual(["party_size", "area"]);
    const made = probeFromDraft(d, {
      id: "reserve_table",
      tool: "reserve_table",
      fields: ["area"],
      hidden: { area: "window" },
    });
    if (!made.ok) throw new Error(made.error);
    const w = rejectedWhatIf(
      made.probe,
      [scheduleWindow()],
      raws.map((raw, i) => ({ id: i + 1, raw })),
    );
    expect(w).toMatchObject({ tried: 3, matched: 3, matchedIds: [1, 2, 3] });
    // No area given is OMIT, the terrace the model made up is INJECT, the question is ASK.
    expect(w.labels).toEqual({ area: { OMIT: 1, INJECT: 1, ASK: 1 } });
  });
});
