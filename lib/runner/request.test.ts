import { describe, expect, it } from "vitest";
import { builtinProbes } from "../probe/builtin";
import { variant } from "../probe/testProbes";
import { buildChatRequest, offeredTools, pythonRepr, recordParams, systemText } from "./request";

const PARAMS = { model: "qwen2.5-7b-instruct", temperature: 0 };

describe("buildChatRequest", () => {
  it("sends schedule_window as the first article's runner does", () => {
    const p = builtinProbes().get("schedule_window");
    if (!p) throw new Error("no schedule_window");
    expect(buildChatRequest(p, PARAMS)).toEqual({
      model: "qwen2.5-7b-instruct",
      temperature: 0,
      messages: [
        {
          role: "system",
          content:
            "You schedule maintenance windows.\nCall schedule_window only with facts present in the user message\nor in the provided state. If timezone is missing, ask. Do not guess.\nState: {'tenant': 'acme-west', 'user_id': 'u_9182'}\n",
        },
        { role: "user", content: "Schedule a window for this user at 2026-09-08T09:00:00." },
      ],
      tools: [
        {
          type: "function",
          function: {
            name: "schedule_window",
            description: p.tool?.description,
            parameters: p.tool?.parameters,
          },
        },
      ],
    });
  });

  it.each([...builtinProbes().values()])("offers $id its own tool, without `mutating`", (p) => {
    const body = buildChatRequest(p, { ...PARAMS, maxTokens: 128 });
    expect(body.tools?.map((t) => t.function.name)).toEqual([p.tool?.name]);
    expect(JSON.stringify(body.tools)).not.toContain("mutating");
    expect(body.max_tokens).toBe(128);
  });

  it("offers every tool of a probe with several, and its clarify tool", () => {
    const p = variant({
      tools: [
        { name: "lookup", description: "read", parameters: { type: "object" }, mutating: false },
        { name: "schedule_window", description: "", parameters: { type: "object" }, mutating: true },
      ],
      clarify_tool: "ask_user",
    });
    expect(offeredTools(p)?.map((t) => t.function.name)).toEqual(["lookup", "schedule_window", "ask_user"]);
    expect(offeredTools(p)?.[2].function.parameters).toMatchObject({ required: ["question"] });
  });

  it("does not offer a clarify tool twice", () => {
    const p = variant({
      tools: [{ name: "ask_user", description: "ask", parameters: { type: "object" }, mutating: false }],
      clarify_tool: "ask_user",
    });
    expect(offeredTools(p)?.map((t) => t.function.name)).toEqual(["ask_user"]);
  });

  it("offers no tools key when no tool fits, and no empty system message", () => {
    const p = variant({ tool: undefined, tools: undefined, system: "" });
    const body = buildChatRequest(p, PARAMS);
    expect(body.tools).toBeUndefined();
    expect("tools" in body).toBe(false);
    expect(body.messages.map((m) => m.role)).toEqual(["user"]);
  });
});

describe("systemText", () => {
  it("fills the article's {state} placeholder as Python formats the dict", () => {
    const p = variant({
      system: "Rules.\nState: {state}\n",
      redacted: { tenant: "acme-west", n: 3, ok: true, x: null },
    });
    expect(systemText(p)).toBe("Rules.\nState: {'tenant': 'acme-west', 'n': 3, 'ok': True, 'x': None}\n");
  });
  it("sends a text without the placeholder as written", () => {
    const p = variant({ system: "no placeholder" });
    expect(systemText(p)).toBe("no placeholder");
  });
  it("quotes as Python does", () => {
    expect(pythonRepr("it's")).toBe(`"it's"`);
    expect(pythonRepr(["a", { b: [1, false] }])).toBe("['a', {'b': [1, False]}]");
  });
});

it("records temperature, and max_tokens when set", () => {
  expect(recordParams(PARAMS)).toEqual({ temperature: 0 });
  expect(recordParams({ ...PARAMS, temperature: 0.7, maxTokens: 64 })).toEqual({
    temperature: 0.7,
    max_tokens: 64,
  });
});
