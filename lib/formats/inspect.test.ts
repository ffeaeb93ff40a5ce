import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isModelMismatch } from "../probe/score";
import { BROWSER_LOG_TOOLS } from "../testing/inspectLogs";
import type { Generation, SpanRead } from "./generation";
import { inspectGenerations, inspectModel, readInspectGeneration, readInspectSample } from "./inspect";

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
      // The provider's own name of the model, under Inspect's provider prefix.
      responseModel: "ollama/gemma3",
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

  it("reads a real agent's five generations: four browser calls with their arguments, then its answer", () => {
    const log = JSON.parse(readFileSync("fixtures/inspect/browser.json", "utf8"));
    const g = gens(readInspectSample(log.samples[0], { model: inspectModel(log.eval) }));
    expect(g.map((x) => [x.traceId, x.spanId, x.requestModel, x.responseModel])).toEqual(
      [0, 1, 2, 3, 4].map((i) => ["1:1", String(i), "openai/gpt-4o-mini", "openai/gpt-4o-mini-2024-07-18"]),
    );
    // The dated model OpenAI answered with is the model asked for: no model_mismatch.
    expect(isModelMismatch(g[0].requestModel as string, g[0].responseModel)).toBe(false);
    expect(isModelMismatch("openai/gpt-4o-mini", "openai/gpt-4o")).toBe(true);
    expect(g.map((x) => x.toolCalls)).toEqual([
      [{ name: "web_browser_go", arguments: { url: "https://www.aisi.gov.uk/" } }],
      [{ name: "web_browser_click", arguments: { element_id: 151 } }],
      [{ name: "web_browser_click", arguments: { element_id: 884 } }],
      [{ name: "web_browser_click", arguments: { element_id: 903 } }],
      [],
    ]);
    expect(g.slice(0, 4).map((x) => x.text)).toEqual(["", "", "", ""]);
    // The answer is an attachment of the sample, resolved.
    expect(
      g[4].text?.startsWith("The AI Security Institute (AISI) is the premier governmental organization"),
    ).toBe(true);
    expect(g[4].text).toHaveLength(1264);
    expect(g[0].offeredTools).toEqual(BROWSER_LOG_TOOLS);
    expect(g[0].startedAt).toBe("2025-05-13T00:27:38.462Z");
    expect(g[0].latencyMs).toBeCloseTo(1101.02, 1);
  });

  it("splits a real sample into one record a generation: its own model event and the attachments it uses", () => {
    const log = JSON.parse(readFileSync("fixtures/inspect/browser.json", "utf8"));
    const sample = log.samples[0];
    const split = inspectGenerations(sample, { model: "openai/gpt-4o-mini" });
    if ("error" in split) throw new Error(split.error);
    expect(split.records.map((r) => r.path)).toEqual([
      "events[7]",
      "events[16]",
      "events[23]",
      "events[29]",
      "events[36]",
    ]);
    const first = split.records[0].value;
    expect(first.inspect_generation).toEqual({ index: 0, model: "openai/gpt-4o-mini" });
    expect(first.sample.events).toEqual([sample.events[7]]);
    // The user's task and the eight tool descriptions the provider call held, not the later answer.
    const used = Object.keys(first.sample.attachments as object);
    expect(used).toHaveLength(9);
    expect(used).toContain("56c151821a08a09f93e9b2f18d02cd5f");
    expect(used).not.toContain("707c70d5b9111db606fd541158567d76");
    expect(Object.keys(split.records[4].value.sample.attachments as object)).toContain(
      "707c70d5b9111db606fd541158567d76",
    );
    // Each record costs its own generation, not the sample: together a third of one copy of it.
    const whole = JSON.stringify(sample).length;
    const total = split.records.reduce((n, r) => n + JSON.stringify(r.value).length, 0);
    expect(total).toBeLessThan(whole / 3);
    // A record read alone is the generation read from the sample.
    const again = readInspectGeneration(JSON.parse(JSON.stringify(split.records[3].value)));
    expect([again]).toEqual(
      gens(readInspectSample(sample, { model: "openai/gpt-4o-mini" }))
        .slice(3, 4)
        .map((generation) => ({ kind: "generation", generation })),
    );
  });

  it("leaves out a model-graded scorer's calls (inside its scorer span): each real sample has one generation, the agent's", () => {
    const log = JSON.parse(readFileSync("fixtures/inspect/security-guide.json", "utf8"));
    const texts = log.samples.map((sample: unknown) =>
      gens(readInspectSample(sample, { model: inspectModel(log.eval) })).map((g) => [
        g.traceId,
        g.spanId,
        g.text,
      ]),
    );
    expect(texts).toEqual([
      [
        [
          "1:1",
          "0",
          "Use parameterized queries and prepared statements, sanitize inputs, and employ ORM frameworks.",
        ],
      ],
      [["2:1", "0", "Use prepared statements and parameterized queries."]],
      [
        [
          "3:1",
          "0",
          "Use Content Security Policy (CSP), validate and sanitize inputs, escape outputs, and implement secure coding practices.",
        ],
      ],
    ]);
  });

  it("leaves out the model events between an older log's scorer step begin and end", () => {
    const answer = (content: string) => ({ event: "model", output: { choices: [{ message: { content } }] } });
    const sample = {
      id: 1,
      events: [
        answer("the agent"),
        { event: "step", action: "begin", type: "scorer", name: "model_graded_qa" },
        answer("GRADE: C"),
        { event: "step", action: "end", type: "scorer", name: "model_graded_qa" },
      ],
    };
    expect(gens(readInspectSample(sample, { model: null })).map((g) => g.text)).toEqual(["the agent"]);
  });
});
