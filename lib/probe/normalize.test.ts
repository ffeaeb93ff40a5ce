import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  looksLikeProviderPayload,
  type NormalizedPayload,
  normalizeExplicit,
  normalizePayload,
} from "./normalize";

const ARGS = '{"user_id":"u_9182","starts_at":"2026-09-08T09:00:00","timezone":"UTC"}';
const ARGS_OBJ = { user_id: "u_9182", starts_at: "2026-09-08T09:00:00", timezone: "UTC" };

/** A chat completion as the OpenAI API returns it, with the given message. */
function chatCompletion(message: Record<string, unknown>, finish = "tool_calls") {
  return {
    id: "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG",
    object: "chat.completion",
    created: 1741570283,
    model: "gpt-4o-2024-08-06",
    choices: [
      {
        index: 0,
        message: { role: "assistant", refusal: null, annotations: [], ...message },
        logprobs: null,
        finish_reason: finish,
      },
    ],
    usage: {
      prompt_tokens: 182,
      completion_tokens: 41,
      total_tokens: 223,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: 0,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    },
    service_tier: "default",
    system_fingerprint: "fp_f9f4fb6dbf",
  };
}

function toolCall(id: string, name: string, args: string) {
  return { id, type: "function", function: { name, arguments: args } };
}

/** An Anthropic Messages response with the given content blocks. */
function anthropicMessage(content: unknown[], stop = "tool_use") {
  return {
    id: "msg_01Aq9w938a90dw8q",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-20250514",
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: {
      input_tokens: 512,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 88,
      service_tier: "standard",
    },
  };
}

/** A Responses API response with the given output items. */
function responsesPayload(output: unknown[]) {
  return {
    id: "resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b",
    object: "response",
    created_at: 1741476542,
    status: "completed",
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model: "o4-mini-2025-04-16",
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: "medium", summary: null },
    store: true,
    temperature: 1.0,
    text: { format: { type: "text" } },
    tool_choice: "auto",
    tools: [
      {
        type: "function",
        name: "schedule_window",
        description: "Schedule a maintenance window",
        parameters: {},
        strict: false,
      },
    ],
    top_p: 1.0,
    truncation: "disabled",
    usage: {
      input_tokens: 291,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 183,
      output_tokens_details: { reasoning_tokens: 128 },
      total_tokens: 474,
    },
    user: null,
    metadata: {},
  };
}

const REASONING = {
  id: "rs_6820f383d7c08191846711c5df8233bc0ac5ba57aafcbac7",
  type: "reasoning",
  summary: [{ type: "summary_text", text: "The user gave no time zone." }],
};

function message(text: string) {
  return {
    id: "msg_67ccd2bf17f0819081ff3bb2cf6508e60bb6a6b452d3795b",
    type: "message",
    status: "completed",
    role: "assistant",
    content: [{ type: "output_text", text, annotations: [] }],
  };
}

function functionCall(name: string, args: string, n = 1) {
  return {
    id: `fc_12345xyz${n}`,
    type: "function_call",
    status: "completed",
    call_id: `call_12345xyz${n}`,
    name,
    arguments: args,
  };
}

const fence = (body: string, tag = "json") => `Here is the call:\n\`\`\`${tag}\n${body}\n\`\`\`\nDone.`;

function expectWellFormed(r: NormalizedPayload): void {
  const keys = ["fenced", "model", "text", "tool_calls"];
  // `unrecognized` is there only when true, so stored responses of known shapes read as before.
  if (Object.hasOwn(r, "unrecognized")) {
    expect(r.unrecognized).toBe(true);
    keys.push("unrecognized");
  }
  expect(Object.keys(r).sort()).toEqual(keys.sort());
  expect(r.text === null || typeof r.text === "string").toBe(true);
  expect(Array.isArray(r.tool_calls)).toBe(true);
  expect(typeof r.fenced).toBe("boolean");
  expect(r.model === null || typeof r.model === "string").toBe(true);
}

describe("OpenAI chat completions", () => {
  it("reads every tool call, keeping arguments as the strings they arrived as", () => {
    const payload = chatCompletion({
      content: null,
      tool_calls: [
        toolCall("call_abc", "schedule_window", ARGS),
        toolCall("call_def", "notify_oncall", '{"team":"sre"}'),
      ],
    });
    expect(normalizePayload(payload)).toEqual({
      text: null,
      tool_calls: [
        { name: "schedule_window", arguments: ARGS },
        { name: "notify_oncall", arguments: '{"team":"sre"}' },
      ],
      fenced: false,
      model: "gpt-4o-2024-08-06",
    });
  });

  it("keeps empty-string arguments as they are", () => {
    const payload = chatCompletion({
      content: null,
      tool_calls: [toolCall("call_1", "schedule_window", "")],
    });
    expect(normalizePayload(payload).tool_calls).toEqual([{ name: "schedule_window", arguments: "" }]);
  });

  it("reads a text-only reply", () => {
    const payload = chatCompletion({ content: "Which time zone should I use?" }, "stop");
    expect(normalizePayload(payload)).toEqual({
      text: "Which time zone should I use?",
      tool_calls: [],
      fenced: false,
      model: "gpt-4o-2024-08-06",
    });
  });

  it("reads the legacy function_call when there are no tool calls", () => {
    const payload = chatCompletion(
      { content: null, function_call: { name: "schedule_window", arguments: ARGS } },
      "function_call",
    );
    expect(normalizePayload(payload).tool_calls).toEqual([{ name: "schedule_window", arguments: ARGS }]);
  });

  it("ignores function_call when tool_calls are there", () => {
    const payload = chatCompletion({
      content: null,
      tool_calls: [toolCall("call_1", "schedule_window", ARGS)],
      function_call: { name: "other", arguments: "{}" },
    });
    expect(normalizePayload(payload).tool_calls).toEqual([{ name: "schedule_window", arguments: ARGS }]);
  });

  it("joins the text parts of a content-part array, skipping other parts", () => {
    const payload = chatCompletion(
      {
        content: [
          { type: "thinking", thinking: [{ type: "text", text: "no zone given" }] },
          { type: "text", text: "Which " },
          { type: "refusal", refusal: "no" },
          { type: "text", text: "timezone?" },
        ],
      },
      "stop",
    );
    expect(normalizePayload(payload).text).toBe("Which timezone?");
  });

  it("copies only the keys a call has", () => {
    const payload = chatCompletion({
      content: null,
      tool_calls: [{ id: "call_1", type: "function", function: { name: "schedule_window" } }],
    });
    expect(normalizePayload(payload).tool_calls).toStrictEqual([{ name: "schedule_window" }]);
  });

  it("reads the text of a legacy text completion", () => {
    const payload = {
      id: "cmpl-uqkvlQyYK7bGYrRHQ0eXlWi7",
      object: "text_completion",
      created: 1589478378,
      model: "gpt-3.5-turbo-instruct",
      choices: [{ text: "Which time zone?", index: 0, logprobs: null, finish_reason: "stop" }],
      usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 },
    };
    expect(normalizePayload(payload)).toEqual({
      text: "Which time zone?",
      tool_calls: [],
      fenced: false,
      model: "gpt-3.5-turbo-instruct",
    });
  });

  it("reads only choices[0]", () => {
    const payload = chatCompletion({ content: "first" }, "stop");
    const second = {
      index: 1,
      message: { role: "assistant", content: "second" },
      logprobs: null,
      finish_reason: "stop",
    };
    expect(normalizePayload({ ...payload, choices: [...payload.choices, second] }).text).toBe("first");
  });

  it("reads an accumulated streaming delta", () => {
    const payload = {
      id: "chatcmpl-123",
      object: "chat.completion.chunk",
      created: 1694268190,
      model: "gpt-4o-mini",
      choices: [
        {
          index: 0,
          delta: {
            role: "assistant",
            content: null,
            tool_calls: [{ index: 0, ...toolCall("call_1", "schedule_window", ARGS) }],
          },
          finish_reason: "tool_calls",
        },
      ],
    };
    expect(normalizePayload(payload)).toEqual({
      text: null,
      tool_calls: [{ name: "schedule_window", arguments: ARGS }],
      fenced: false,
      model: "gpt-4o-mini",
    });
  });

  it("glues concatenated streaming fragments of the same call index", () => {
    const payload = {
      object: "chat.completion.chunk",
      model: "gpt-4o-mini",
      choices: [
        {
          index: 0,
          delta: {
            tool_calls: [
              {
                index: 0,
                id: "call_1",
                type: "function",
                function: { name: "schedule_window", arguments: "" },
              },
              { index: 0, function: { arguments: '{"user_id":"u_9182",' } },
              {
                index: 1,
                id: "call_2",
                type: "function",
                function: { name: "notify_oncall", arguments: "{}" },
              },
              { index: 0, function: { arguments: '"timezone":"UTC"}' } },
            ],
          },
        },
      ],
    };
    expect(normalizePayload(payload).tool_calls).toEqual([
      { name: "schedule_window", arguments: '{"user_id":"u_9182","timezone":"UTC"}' },
      { name: "notify_oncall", arguments: "{}" },
    ]);
  });

  it("survives wrong types inside the shape", () => {
    const cases: unknown[] = [
      { object: "chat.completion", choices: [] },
      { object: "chat.completion", choices: [{ index: 0 }] },
      { object: "chat.completion", choices: [null] },
      { object: "chat.completion", choices: [{ message: { content: 42, tool_calls: "call it" } }] },
      {
        object: "chat.completion",
        choices: [{ message: { content: [1, null, { type: "text", text: 3 }], tool_calls: [null, 7] } }],
      },
      { object: "chat.completion", choices: [{ message: { function_call: "schedule_window" } }] },
      { object: "chat.completion", model: 7, choices: [{ message: null, delta: [] }] },
    ];
    for (const payload of cases) expectWellFormed(normalizePayload(payload));
    expect(normalizePayload(cases[0])).toEqual({ text: null, tool_calls: [], fenced: false, model: null });
    // Entries with no name are no call (a provider's call needs a name).
    expect(normalizePayload(cases[4]).tool_calls).toEqual([]);
  });
});

describe("OpenAI Responses API", () => {
  it("reads message text and function_call items, ignoring reasoning", () => {
    const payload = responsesPayload([
      REASONING,
      message("I'll schedule it in UTC."),
      functionCall("schedule_window", ARGS, 1),
      functionCall("notify_oncall", '{"team":"sre"}', 2),
    ]);
    expect(normalizePayload(payload)).toEqual({
      text: "I'll schedule it in UTC.",
      tool_calls: [
        { name: "schedule_window", arguments: ARGS },
        { name: "notify_oncall", arguments: '{"team":"sre"}' },
      ],
      fenced: false,
      model: "o4-mini-2025-04-16",
    });
  });

  it("has no text when only a call was output", () => {
    const r = normalizePayload(responsesPayload([REASONING, functionCall("schedule_window", "", 1)]));
    expect(r).toMatchObject({ text: null, tool_calls: [{ name: "schedule_window", arguments: "" }] });
  });

  it("concatenates output_text parts and falls back to the output_text field", () => {
    const twoParts = {
      ...message("Which "),
      content: [
        { type: "output_text", text: "Which ", annotations: [] },
        { type: "refusal", refusal: "x" },
        { type: "output_text", text: "timezone?", annotations: [] },
      ],
    };
    expect(normalizePayload(responsesPayload([twoParts])).text).toBe("Which timezone?");
    expect(normalizePayload({ ...responsesPayload([REASONING]), output_text: "Which timezone?" }).text).toBe(
      "Which timezone?",
    );
  });

  it("survives wrong types inside the shape", () => {
    for (const output of [[null, 1, "x"], [{ type: "message", content: 5 }], [{ type: "function_call" }]]) {
      expectWellFormed(normalizePayload({ object: "response", output }));
    }
    expect(normalizePayload({ object: "response", output: [{ type: "function_call" }] }).tool_calls).toEqual(
      [],
    );
  });
});

describe("Anthropic Messages", () => {
  it("reads text and tool_use blocks, arguments as the input object", () => {
    const payload = anthropicMessage([
      { type: "text", text: "I'll schedule the window now." },
      { type: "tool_use", id: "toolu_01A09q90qw90lq917835lq9", name: "schedule_window", input: ARGS_OBJ },
    ]);
    expect(normalizePayload(payload)).toEqual({
      text: "I'll schedule the window now.",
      tool_calls: [{ name: "schedule_window", arguments: ARGS_OBJ }],
      fenced: false,
      model: "claude-sonnet-4-20250514",
    });
  });

  it("reads a message with only tool_use blocks", () => {
    const payload = anthropicMessage([
      { type: "tool_use", id: "toolu_1", name: "schedule_window", input: ARGS_OBJ },
      { type: "tool_use", id: "toolu_2", name: "notify_oncall", input: {} },
    ]);
    expect(normalizePayload(payload)).toMatchObject({
      text: null,
      tool_calls: [{ name: "schedule_window" }, { name: "notify_oncall", arguments: {} }],
    });
  });

  it("joins text blocks and skips thinking", () => {
    const payload = anthropicMessage(
      [
        { type: "thinking", thinking: "The zone is unknown.", signature: "EqQBCgIYAhIM" },
        { type: "text", text: "Which " },
        { type: "text", text: "time zone?" },
      ],
      "end_turn",
    );
    expect(normalizePayload(payload)).toMatchObject({ text: "Which time zone?", tool_calls: [] });
  });
});

describe("fenced-JSON recovery", () => {
  const call = `{"name": "schedule_window", "arguments": ${ARGS}}`;

  it("takes a valid json block as the call; the block leaves the text, the prose stays", () => {
    const text = fence(call);
    const r = normalizePayload(chatCompletion({ content: text }, "stop"));
    expect(r).toEqual({
      text: "Here is the call:\n\nDone.",
      tool_calls: [{ name: "schedule_window", arguments: ARGS_OBJ }],
      fenced: true,
      model: "gpt-4o-2024-08-06",
    });
  });

  it("leaves invalid JSON as text", () => {
    const text = fence('{"name": "schedule_window", "arguments": {"timezone": "UTC"');
    expect(normalizePayload(chatCompletion({ content: text }, "stop"))).toMatchObject({
      text,
      tool_calls: [],
      fenced: false,
    });
  });

  it("leaves blocks of the wrong shape as text", () => {
    for (const body of [
      '{"arguments": {"timezone": "UTC"}}',
      '{"name": "schedule_window"}',
      '{"name": 7, "arguments": {}}',
      '{"name": "schedule_window", "arguments": ["UTC"]}',
      '{"name": "schedule_window", "arguments": "not json"}',
      '{"name": "schedule_window", "arguments": "[1]"}',
      '[{"name": "schedule_window", "arguments": {}}]',
    ]) {
      expect(normalizePayload(fence(body))).toMatchObject({ tool_calls: [], fenced: false });
    }
  });

  it("accepts arguments given as a JSON string and keeps them as the string", () => {
    const body = JSON.stringify({ name: "schedule_window", arguments: ARGS });
    expect(normalizePayload(fence(body)).tool_calls).toEqual([{ name: "schedule_window", arguments: ARGS }]);
  });

  it("accepts a fence without a language tag, or JSON on the fence's line", () => {
    expect(normalizePayload(fence(call, "")).fenced).toBe(true);
    expect(normalizePayload(`Calling: \`\`\`json${call}\`\`\``).fenced).toBe(true);
    expect(normalizePayload(fence(call, "python")).fenced).toBe(false);
  });

  it("takes every qualifying block in order", () => {
    const second = '{"name": "notify_oncall", "arguments": {}}';
    const r = normalizePayload(`${fence(call)}\n${fence("{oops}")}\n${fence(second, "")}`);
    expect(r.tool_calls).toEqual([
      { name: "schedule_window", arguments: ARGS_OBJ },
      { name: "notify_oncall", arguments: {} },
    ]);
    expect(r.fenced).toBe(true);
  });

  it("works in Anthropic and Responses text", () => {
    expect(normalizePayload(anthropicMessage([{ type: "text", text: fence(call) }], "end_turn")).fenced).toBe(
      true,
    );
    expect(normalizePayload(responsesPayload([REASONING, message(fence(call))])).fenced).toBe(true);
  });

  it("does not recover when a structured call exists", () => {
    const text = fence('{"name": "other_tool", "arguments": {}}');
    const r = normalizePayload(
      chatCompletion({ content: text, tool_calls: [toolCall("call_1", "schedule_window", ARGS)] }),
    );
    expect(r).toMatchObject({ tool_calls: [{ name: "schedule_window", arguments: ARGS }], fenced: false });
  });

  it("does not recover in an explicit response or the seed's trace shape", () => {
    const text = fence(call);
    expect(normalizeExplicit({ text, tool_calls: [] })).toEqual({ text, tool_calls: [], fenced: false });
    expect(normalizePayload({ text, tool_call: null })).toEqual({
      text,
      tool_calls: [],
      fenced: false,
      model: null,
    });
    expect(normalizePayload(JSON.stringify({ text })).fenced).toBe(false);
  });

  it("ignores an unclosed fence and shorter backtick runs inside a block", () => {
    expect(normalizePayload(`\`\`\`json\n${call}`).fenced).toBe(false);
    const inner = '{"name": "schedule_window", "arguments": {"note": "```x```"}}';
    expect(normalizePayload(`\`\`\`\`json\n${inner}\n\`\`\`\``).tool_calls).toEqual([
      { name: "schedule_window", arguments: { note: "```x```" } },
    ]);
  });

  it("normalizes 5 MB texts full of backticks", () => {
    const size = 5 * 1024 * 1024;
    const texts = [
      "`".repeat(size),
      "``` ".repeat(size / 4),
      "```json\n{".repeat(size / 9),
      // Runs just shorter than the opening fence: a naive indexOf of the closing run is quadratic here.
      `${"`".repeat(2000)}\n${`${"`".repeat(1999)} `.repeat(size / 2000)}`,
      // Braced blocks that are not JSON: each failed parse costs an exception.
      "```\n{x}\n```".repeat(size / 12),
      `${"x".repeat(size)}\n${fence('{"name": "schedule_window", "arguments": {}}')}`,
    ];
    const results = texts.map((t) => normalizePayload(t));
    for (const r of results) expectWellFormed(r);
    expect(results.map((r) => r.fenced)).toEqual([false, false, false, false, false, true]);
  });
});

describe("model extraction", () => {
  it("reads the model each provider names, else null", () => {
    expect(normalizePayload(chatCompletion({ content: "hi" })).model).toBe("gpt-4o-2024-08-06");
    expect(normalizePayload(responsesPayload([message("hi")])).model).toBe("o4-mini-2025-04-16");
    expect(normalizePayload(anthropicMessage([{ type: "text", text: "hi" }])).model).toBe(
      "claude-sonnet-4-20250514",
    );
    expect(normalizePayload({ choices: [{ message: { content: "hi" } }] }).model).toBeNull();
    expect(normalizePayload({ choices: [], model: { name: "gpt" } }).model).toBeNull();
    expect(normalizePayload({ choices: [], model: "" }).model).toBeNull();
    expect(normalizePayload("plain text").model).toBeNull();
  });
});

describe("string payloads", () => {
  it("normalizes a string that is the JSON of a known shape", () => {
    const payload = chatCompletion({
      content: null,
      tool_calls: [toolCall("call_1", "schedule_window", ARGS)],
    });
    expect(normalizePayload(JSON.stringify(payload))).toEqual(normalizePayload(payload));
    expect(normalizePayload('{"text": "hi", "tool_call": {"name": "x"}}')).toMatchObject({
      text: "hi",
      tool_calls: [{ name: "x" }],
    });
  });

  it("reads any other string as plain provider text", () => {
    expect(normalizePayload("Which time zone?")).toEqual({
      text: "Which time zone?",
      tool_calls: [],
      fenced: false,
      model: null,
    });
    expect(normalizePayload("42").text).toBe("42");
    expect(normalizePayload('{"unrelated": true}').text).toBe('{"unrelated": true}');
    expect(normalizePayload("")).toEqual({ text: "", tool_calls: [], fenced: false, model: null });
  });
});

describe("the seed's trace shape through normalizePayload", () => {
  it("is returned as given", () => {
    expect(
      normalizePayload({ text: null, tool_call: { name: "schedule_window", arguments: ARGS_OBJ } }),
    ).toEqual({
      text: null,
      tool_calls: [{ name: "schedule_window", arguments: ARGS_OBJ }],
      fenced: false,
      model: null,
    });
    expect(normalizePayload({ text: "ok", tool_calls: [{}, null] }).tool_calls).toEqual([{}, null]);
  });

  it("falls back to an empty reading, marked unrecognized, when the shape is invalid", () => {
    expect(normalizePayload({ text: 5, tool_calls: [] })).toEqual({
      text: null,
      tool_calls: [],
      fenced: false,
      model: null,
      unrecognized: true,
    });
  });
});

describe("normalizeExplicit", () => {
  it("wraps a single tool_call", () => {
    expect(
      normalizeExplicit({ text: null, tool_call: { name: "schedule_window", arguments: ARGS } }),
    ).toEqual({
      text: null,
      tool_calls: [{ name: "schedule_window", arguments: ARGS }],
      fenced: false,
    });
  });

  it("keeps a falsy tool_call as the single entry, never falling back to tool_calls", () => {
    for (const falsy of [{}, 0, false, "", []]) {
      const r = normalizeExplicit({
        text: "hm",
        tool_call: falsy,
        tool_calls: [{ name: "x", arguments: {} }],
      });
      expect(r).toEqual({ text: "hm", tool_calls: [falsy], fenced: false });
    }
    expect(normalizeExplicit({ tool_call: null, tool_calls: [{ name: "x" }] })).toEqual({
      text: null,
      tool_calls: [{ name: "x" }],
      fenced: false,
    });
  });

  it("keeps tool_calls entries exactly, falsy ones included", () => {
    const entries = [null, {}, 0, "", { name: "schedule_window", arguments: "{bad" }, { arguments: {} }];
    const r = normalizeExplicit({ text: "x", tool_calls: entries });
    expect(r).toEqual({ text: "x", tool_calls: entries, fenced: false });
    if ("error" in r) throw new Error(r.error);
    expect(r.tool_calls[4]).toBe(entries[4]);
  });

  it("converts pasted OpenAI entries, keeping arguments as given", () => {
    const r = normalizeExplicit({
      tool_calls: [toolCall("call_1", "schedule_window", ARGS)],
      tool_call: undefined,
    });
    expect(r).toEqual({
      text: null,
      tool_calls: [{ name: "schedule_window", arguments: ARGS }],
      fenced: false,
    });
  });

  it("treats absent and null text and tool_calls as empty", () => {
    expect(normalizeExplicit({})).toEqual({ text: null, tool_calls: [], fenced: false });
    expect(normalizeExplicit({ text: null, tool_calls: null })).toEqual({
      text: null,
      tool_calls: [],
      fenced: false,
    });
  });

  it("rejects what it cannot read", () => {
    expect(normalizeExplicit({ text: 5 })).toEqual({
      error: "response.text must be a string or null, got a number",
    });
    expect(normalizeExplicit({ text: ["a"] })).toEqual({
      error: "response.text must be a string or null, got an array",
    });
    expect(normalizeExplicit({ tool_calls: "schedule_window" })).toEqual({
      error: "response.tool_calls must be an array, got a string",
    });
    expect(normalizeExplicit({ tool_calls: {} })).toEqual({
      error: "response.tool_calls must be an array, got an object",
    });
    expect(normalizeExplicit(null)).toEqual({ error: "response must be an object, got null" });
    expect(normalizeExplicit([])).toEqual({ error: "response must be an object, got an array" });
    expect(normalizeExplicit("hi")).toEqual({ error: "response must be an object, got a string" });
  });
});

describe("looksLikeProviderPayload", () => {
  it("recognizes the three provider shapes", () => {
    expect(looksLikeProviderPayload(chatCompletion({ content: "hi" }))).toBe(true);
    expect(looksLikeProviderPayload(responsesPayload([]))).toBe(true);
    expect(
      looksLikeProviderPayload({ output: [{ type: "function_call", name: "x", arguments: "{}" }] }),
    ).toBe(true);
    expect(looksLikeProviderPayload(anthropicMessage([]))).toBe(true);
    expect(looksLikeProviderPayload({ role: "assistant", content: [{ type: "text", text: "hi" }] })).toBe(
      true,
    );
  });

  it("rejects trace records, the seed's shapes and junk", () => {
    const record = {
      schema: "assumeprobe/trace@1",
      id: "s-0001",
      response: { text: null, tool_calls: [] },
      raw: { choices: [] },
    };
    for (const v of [
      record,
      { label: "INJECT", trace: { text: "hi" } },
      { text: "hi", tool_calls: [] },
      { output: [1, 2] },
      { type: "message", content: "hi" },
      [],
      null,
      "choices",
      3,
    ]) {
      expect(looksLikeProviderPayload(v)).toBe(false);
    }
  });
});

describe("robustness", () => {
  const junk = fc.anything({
    maxDepth: 4,
    withBigInt: true,
    withBoxedValues: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withNullPrototype: true,
    withObjectString: true,
    withSparseArray: true,
    withTypedArray: true,
  });
  const key = fc.constantFrom(
    "choices",
    "message",
    "delta",
    "content",
    "tool_calls",
    "function_call",
    "function",
    "output",
    "type",
    "text",
    "tool_call",
    "model",
    "name",
    "arguments",
    "input",
    "index",
    "object",
    "role",
    "candidates",
    "parts",
    "functionCall",
    "args",
    "thought",
    "toolUse",
    "stopReason",
    "finish_reason",
    "done",
    "modelVersion",
  );
  // Leaves dressed in the provider keys, so the readers get past shape detection.
  const shapedOf = (leaf: fc.Arbitrary<unknown>, noNullPrototype = false) =>
    fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: "small" }, leaf, tie("object"), fc.array(tie("value"), { maxLength: 4 })),
      object: fc.dictionary(key, tie("value"), { maxKeys: 5, noNullPrototype }),
    })).value;
  const shaped = shapedOf(junk);

  it("never throws on anything and always returns a well-formed result", () => {
    fc.assert(
      fc.property(fc.oneof(junk, shaped, fc.jsonValue()), (v) => {
        expectWellFormed(normalizePayload(v));
        expectWellFormed(
          normalizePayload(
            typeof v === "string" ? v : (JSON.stringify(v, (_, x) => (typeof x === "bigint" ? 0 : x)) ?? ""),
          ),
        );
        const explicit = normalizeExplicit(v);
        if ("error" in explicit) expect(typeof explicit.error).toBe("string");
        else expectWellFormed({ ...explicit, model: null });
        expect(typeof looksLikeProviderPayload(v)).toBe("boolean");
      }),
      { numRuns: 1000 },
    );
  });

  it("reads JSON values to results that survive a JSON round trip (no undefined keys)", () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), shapedOf(fc.jsonValue({ maxDepth: 2 }), true)), (v) => {
        const r = normalizePayload(v);
        expect(JSON.parse(JSON.stringify(r))).toStrictEqual(r);
      }),
      { numRuns: 500 },
    );
  });

  it("does not recurse into deeply nested payloads", () => {
    let deep: unknown = { type: "text", text: "x" };
    for (let i = 0; i < 100_000; i++) deep = { choices: [{ message: { content: [deep] } }] };
    expectWellFormed(normalizePayload(deep));
    expectWellFormed(normalizePayload("[".repeat(1_000_000)));
    expectWellFormed(normalizePayload(`${'{"choices":['.repeat(100_000)}`));
  });
});
