import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Generation, SpanRead } from "./generation";
import { inspectModel, readInspectSample } from "./inspect";

const gens = (r: SpanRead[] | { error: string }): Generation[] => {
  if (!Array.isArray(r)) throw new Error(r.error);
  return r.map((x) => {
    if (x.kind !== "generation") throw new Error(JSON.stringify(x));
    return x.generation;
  });
};

describe("readInspectSample", () => {
  it("reads a real log's model events (preferred over its messages), with model and identity", () => {
    const log = JSON.parse(readFileSync("fixtures/inspect/log_read_sample.json", "utf8"));
    const ctx = { model: inspectModel(log.eval) };
    expect(ctx.model).toBe("ollama/gemma3");
    const g = gens(readInspectSample(log.samples[0], ctx));
    expect(g).toHaveLength(1);
    expect(g[0]).toMatchObject({
      traceId: "1:1",
      spanId: "0",
      text: "Yes\n",
      toolCalls: [],
      requestModel: "ollama/gemma3",
      responseModel: "gemma3",
    });
  });

  it("falls back to a real log's assistant messages when it has no model events", () => {
    const log = JSON.parse(readFileSync("fixtures/inspect/log_formats.json", "utf8"));
    expect(log.samples[0].events ?? []).toHaveLength(0);
    const g = gens(readInspectSample(log.samples[0], { model: inspectModel(log.eval) }));
    expect(g.map((x) => [x.traceId, x.spanId, x.text, x.requestModel])).toEqual([
      ["1:1", "0", "No", "ollama/llama3.1"],
    ]);
  });

  it("prefers model events: messages are not read beside them", () => {
    const sample = {
      id: "s",
      epoch: 2,
      messages: [{ role: "assistant", content: "from messages" }],
      events: [
        { event: "sample_init" },
        {
          event: "model",
          model: "openai/gpt-4o",
          tools: [{ name: "book" }],
          output: { choices: [{ message: { role: "assistant", content: "first" } }] },
        },
        { event: "model", output: { choices: [{ message: { role: "assistant", content: "second" } }] } },
      ],
    };
    const g = gens(readInspectSample(sample, { model: "m" }));
    expect(g.map((x) => [x.traceId, x.spanId, x.text, x.requestModel, x.offeredTools])).toEqual([
      ["s:2", "0", "first", "openai/gpt-4o", ["book"]],
      ["s:2", "1", "second", "m", []],
    ]);
  });

  it("reads content as a list of parts, tool_calls by function and arguments, parse_error as unparseable arguments", () => {
    const sample = {
      id: 7,
      epoch: 1,
      metadata: { world_state: { facts: [] } },
      messages: [
        { role: "user", content: "book it" },
        {
          role: "assistant",
          content: [
            { type: "reasoning", reasoning: "hmm" },
            { type: "text", text: "Booking" },
            { type: "text", text: "now" },
          ],
          tool_calls: [
            { id: "c1", function: "book", arguments: { day: "mon" } },
            { id: "c2", function: "book", arguments: {}, parse_error: "Expecting value: line 1" },
          ],
        },
      ],
    };
    const g = gens(readInspectSample(sample, { model: null }));
    expect(g).toHaveLength(1);
    expect(g[0].text).toBe("Booking\nnow");
    expect(g[0].toolCalls[0]).toEqual({ name: "book", arguments: { day: "mon" } });
    expect(g[0].toolCalls[1].name).toBe("book");
    expect(typeof g[0].toolCalls[1].arguments).toBe("string");
    expect(() => JSON.parse(g[0].toolCalls[1].arguments as string)).toThrow();
    expect(g[0].worldState).toEqual({ facts: [] });
  });

  it("resolves attachment:// content from the sample's attachments", () => {
    const sample = {
      id: 1,
      epoch: 1,
      attachments: { abc: "the real text" },
      events: [{ event: "model", output: { choices: [{ message: { content: "attachment://abc" } }] } }],
    };
    expect(gens(readInspectSample(sample, { model: null }))[0].text).toBe("the real text");
  });

  it("rejects a sample that cannot be read, and one bad generation alone", () => {
    expect(readInspectSample("x", { model: null })).toEqual({ error: "the sample is not an object" });
    expect(readInspectSample({ epoch: 1, messages: [] }, { model: null })).toMatchObject({
      error: expect.stringContaining("no id"),
    });
    const r = readInspectSample(
      {
        id: 1,
        events: [
          { event: "model", output: { choices: [{ message: { content: "ok" } }] } },
          { event: "model", output: { choices: [{ message: { content: "x", tool_calls: "bad" } }] } },
        ],
      },
      { model: null },
    );
    expect(Array.isArray(r) && r.map((x) => x.kind)).toEqual(["generation", "error"]);
  });
});
