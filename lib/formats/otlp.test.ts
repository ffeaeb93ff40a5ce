import { describe, expect, it } from "vitest";
import { decodeAnyValue, decodeKeyValues } from "./anyValue";
import type { Generation } from "./generation";
import { readOtlpSpan } from "./otlp";

const s = (v: string) => ({ stringValue: v });
const kv = (key: string, value: unknown) => ({ key, value });
const kvlist = (o: Record<string, unknown>) => ({
  kvlistValue: { values: Object.entries(o).map(([k, v]) => kv(k, v)) },
});
const arr = (...values: unknown[]) => ({ arrayValue: { values } });

function span(attributes: unknown[], extra: Record<string, unknown> = {}) {
  return {
    traceId: "5b8efff798038103d269b633813fc60c",
    spanId: "eee19b7ec3c1b174",
    name: "chat",
    startTimeUnixNano: "1544712660000000000",
    endTimeUnixNano: "1544712661250000000",
    attributes,
    ...extra,
  };
}

function generation(attributes: unknown[]): Generation {
  const r = readOtlpSpan(span(attributes));
  if (r.kind !== "generation") throw new Error(`not a generation: ${JSON.stringify(r)}`);
  return r.generation;
}

describe("decodeAnyValue", () => {
  it("decodes each AnyValue shape", () => {
    expect(decodeAnyValue(s("x"))).toBe("x");
    // int64 is a decimal string in OTLP JSON; a number is accepted; past 2^53 it stays a string.
    expect(decodeAnyValue({ intValue: "42" })).toBe(42);
    expect(decodeAnyValue({ intValue: 42 })).toBe(42);
    expect(decodeAnyValue({ intValue: "9223372036854775807" })).toBe("9223372036854775807");
    expect(decodeAnyValue({ doubleValue: 0.5 })).toBe(0.5);
    expect(decodeAnyValue({ boolValue: true })).toBe(true);
    expect(decodeAnyValue(arr(s("a"), { intValue: "1" }))).toEqual(["a", 1]);
    expect(decodeAnyValue(kvlist({ a: s("b"), n: kvlist({ c: { boolValue: false } }) }))).toEqual({
      a: "b",
      n: { c: false },
    });
    expect(decodeAnyValue({ bytesValue: "AAE=" })).toBe("AAE=");
    expect(decodeAnyValue({})).toBeUndefined();
    expect(decodeAnyValue(arr())).toEqual([]);
  });

  it("decodes a KeyValue list, skipping entries with no key or no value", () => {
    expect({
      ...decodeKeyValues([kv("a", s("1")), { value: s("x") }, kv("b", {}), kv("c", { intValue: "7" })]),
    }).toEqual({
      a: "1",
      c: 7,
    });
  });
});

describe("readOtlpSpan", () => {
  it("skips spans that are no model call (an agent, a tool)", () => {
    expect(readOtlpSpan(span([kv("gen_ai.operation.name", s("invoke_agent"))]))).toEqual({ kind: "skip" });
    expect(readOtlpSpan(span([kv("gen_ai.operation.name", s("execute_tool"))]))).toEqual({ kind: "skip" });
    expect(readOtlpSpan(span([kv("http.method", s("POST"))]))).toEqual({ kind: "skip" });
    expect(readOtlpSpan(span([kv("openinference.span.kind", s("CHAIN"))]))).toEqual({ kind: "skip" });
  });

  it("rejects a span without ids or with attributes that are no list", () => {
    expect(readOtlpSpan({ spanId: "x" })).toMatchObject({
      kind: "error",
      reason: expect.stringContaining("traceId"),
    });
    expect(readOtlpSpan(span([], { attributes: { a: 1 } }))).toMatchObject({ kind: "error" });
    expect(readOtlpSpan([])).toMatchObject({ kind: "error" });
  });

  it("reads GenAI output messages as a JSON string, with times, models and offered tools", () => {
    const r = readOtlpSpan(
      span([
        kv("gen_ai.operation.name", s("chat")),
        kv("gen_ai.request.model", s("gpt-4o")),
        kv("gen_ai.response.model", s("gpt-4o-2024-08-06")),
        kv(
          "gen_ai.tool.definitions",
          s('[{"type":"function","name":"book"},{"type":"function","function":{"name":"ask"}}]'),
        ),
        kv(
          "gen_ai.output.messages",
          s(
            '[{"role":"assistant","parts":[{"type":"text","content":"Booking."},{"type":"tool_call","id":"c1","name":"book","arguments":{"day":"mon"}}]}]',
          ),
        ),
      ]),
    );
    expect(r).toEqual({
      kind: "generation",
      generation: {
        traceId: "5b8efff798038103d269b633813fc60c",
        spanId: "eee19b7ec3c1b174",
        requestModel: "gpt-4o",
        responseModel: "gpt-4o-2024-08-06",
        text: "Booking.",
        toolCalls: [{ name: "book", arguments: { day: "mon" } }],
        offeredTools: ["book", "ask"],
        style: "genai",
        startedAt: "2018-12-13T14:51:00.000Z",
        latencyMs: 1250,
      },
    });
  });

  it("reads GenAI output messages as a structured value (arrayValue of kvlists)", () => {
    const g = generation([
      kv("gen_ai.operation.name", s("generate_content")),
      kv(
        "gen_ai.output.messages",
        arr(
          kvlist({
            role: s("assistant"),
            parts: arr(
              kvlist({ type: s("tool_call"), name: s("book"), arguments: kvlist({ day: s("tue") }) }),
            ),
          }),
        ),
      ),
    ]);
    expect(g.toolCalls).toEqual([{ name: "book", arguments: { day: "tue" } }]);
    expect(g.text).toBeNull();
    expect(g.style).toBe("genai");
  });

  it("reads OpenLLMetry's flattened completions: tool_calls, function_call, content", () => {
    const base = [kv("llm.request.type", s("chat")), kv("gen_ai.request.model", s("m"))];
    const calls = generation([
      ...base,
      kv("llm.request.functions.0.name", s("book")),
      kv("gen_ai.completion.0.tool_calls.0.name", s("book")),
      kv("gen_ai.completion.0.tool_calls.0.arguments", s('{"day":"mon"}')),
      kv("gen_ai.completion.0.tool_calls.1.name", s("notify")),
      kv("gen_ai.completion.0.tool_calls.1.arguments", s("{}")),
      kv("gen_ai.completion.1.content", s("a second choice is not the answer")),
    ]);
    expect(calls.toolCalls).toEqual([
      { name: "book", arguments: '{"day":"mon"}' },
      { name: "notify", arguments: "{}" },
    ]);
    expect(calls.text).toBeNull();
    expect(calls.offeredTools).toEqual(["book"]);
    expect(calls.style).toBe("legacy");
    const fn = generation([
      ...base,
      kv("gen_ai.completion.0.function_call.name", s("book")),
      kv("gen_ai.completion.0.function_call.arguments", s('{"day":"fri"}')),
    ]);
    expect(fn.toolCalls).toEqual([{ name: "book", arguments: '{"day":"fri"}' }]);
    const text = generation([...base, kv("llm.completions.0.content", s("Which day?"))]);
    expect(text).toMatchObject({ text: "Which day?", toolCalls: [], style: "legacy", requestModel: "m" });
  });

  it("reads OpenInference's output messages, tools and invocation model", () => {
    const g = generation([
      kv("openinference.span.kind", s("LLM")),
      kv("llm.model_name", s("gpt-4o-2024-08-06")),
      kv("llm.invocation_parameters", s('{"model":"gpt-4o"}')),
      kv("llm.tools.0.tool.json_schema", s('{"type":"function","function":{"name":"book"}}')),
      kv("llm.output_messages.0.message.role", s("assistant")),
      kv("llm.output_messages.0.message.tool_calls.0.tool_call.function.name", s("book")),
      kv("llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments", s('{"day":"sat"}')),
      kv("llm.token_count.prompt", { intValue: "98" }),
    ]);
    expect(g).toMatchObject({
      requestModel: "gpt-4o",
      responseModel: "gpt-4o-2024-08-06",
      toolCalls: [{ name: "book", arguments: '{"day":"sat"}' }],
      offeredTools: ["book"],
      style: "openinference",
    });
    const contents = generation([
      kv("openinference.span.kind", s("LLM")),
      kv("llm.output_messages.0.message.contents.0.message_content.text", s("Which ")),
      kv("llm.output_messages.0.message.contents.1.message_content.text", s("day?")),
    ]);
    expect(contents.text).toBe("Which day?");
  });

  it("reads a raw provider body (output.value as JSON) when no message attribute is there", () => {
    const g = generation([
      kv("openinference.span.kind", s("LLM")),
      kv("output.mime_type", s("application/json")),
      kv("output.value", s('{"choices":[{"message":{"role":"assistant","content":"hi"}}],"model":"m"}')),
    ]);
    expect(g.style).toBe("payload");
    expect(g.payload).toEqual({ choices: [{ message: { role: "assistant", content: "hi" } }], model: "m" });
  });

  it("takes the world state and probe the agent recorded, as JSON or structured", () => {
    const ws = { timezone: { status: "known", value: "UTC", source: "state" } };
    const asJson = generation([
      kv("gen_ai.operation.name", s("chat")),
      kv("assumeprobe.world_state", s(JSON.stringify(ws))),
      kv("assumeprobe.probe", s("book_slot")),
    ]);
    expect(asJson).toMatchObject({ worldState: ws, probe: "book_slot" });
    const structured = generation([
      kv("gen_ai.operation.name", s("chat")),
      kv(
        "assumeprobe.world_state",
        kvlist({ timezone: kvlist({ status: s("known"), value: s("UTC"), source: s("state") }) }),
      ),
    ]);
    expect(structured.worldState).toEqual(ws);
    expect(
      readOtlpSpan(span([kv("gen_ai.operation.name", s("chat")), kv("assumeprobe.world_state", s("{oops"))])),
    ).toEqual({ kind: "error", reason: "assumeprobe.world_state is not JSON" });
  });
});
