/**
 * Provider payloads as those services return them (field names and nesting from their API
 * references), each holding a real call to schedule_window, and bodies in no shape the parser
 * reads. For tests; recorded bodies are in fixtures/payloads.
 */
const ARGS = { user_id: "u_9182", starts_at: "2026-09-08T09:00:00", timezone: "UTC" };

/** Google Gemini `generateContent`: a `functionCall` part in the first candidate. */
export const GEMINI_CALL = {
  candidates: [
    {
      content: { parts: [{ functionCall: { name: "schedule_window", args: ARGS } }], role: "model" },
      finishReason: "STOP",
      avgLogprobs: -0.0213,
    },
  ],
  usageMetadata: { promptTokenCount: 187, candidatesTokenCount: 31, totalTokenCount: 218 },
  modelVersion: "gemini-2.0-flash",
  responseId: "f9GHaKGfM7Ta1e8P0t2J0Qo",
};

/** Gemini's streamed answer: an array of chunks. */
export const GEMINI_STREAM = [
  { candidates: [{ content: { parts: [{ text: "Which time" }], role: "model" } }] },
  { candidates: [{ content: { parts: [{ text: " zone?" }], role: "model" }, finishReason: "STOP" }] },
];

/** Cohere Chat v2: `message.tool_calls` in OpenAI's entry shape, but no `choices`. */
export const COHERE_V2_CALL = {
  id: "5a50480a-cf52-46f0-af01-53d18539bd31",
  message: {
    role: "assistant",
    tool_plan: "I will schedule the window for the user.",
    tool_calls: [
      {
        id: "schedule_window_1ne9yb4s6thh",
        type: "function",
        function: { name: "schedule_window", arguments: JSON.stringify(ARGS) },
      },
    ],
  },
  finish_reason: "TOOL_CALL",
  usage: {
    billed_units: { input_tokens: 37, output_tokens: 24 },
    tokens: { input_tokens: 1058, output_tokens: 91 },
  },
};

/** Amazon Bedrock Converse: `output.message.content` with a `toolUse` block. */
export const BEDROCK_CONVERSE_CALL = {
  output: {
    message: {
      role: "assistant",
      content: [
        { text: "I'll schedule the window." },
        { toolUse: { toolUseId: "tooluse_kZJMlvQmRJ6eAyJE5GIl7Q", name: "schedule_window", input: ARGS } },
      ],
    },
  },
  stopReason: "tool_use",
  usage: { inputTokens: 412, outputTokens: 91, totalTokens: 503 },
  metrics: { latencyMs: 1234 },
};

/** Ollama's native `/api/chat`: `message.tool_calls` with object arguments, no `choices`. */
export const OLLAMA_CHAT_CALL = {
  model: "qwen2.5:7b",
  created_at: "2026-11-30T02:41:10.5Z",
  message: {
    role: "assistant",
    content: "",
    tool_calls: [{ function: { name: "schedule_window", arguments: ARGS } }],
  },
  done_reason: "stop",
  done: true,
  total_duration: 885095291,
  eval_count: 31,
};

/** An error body recorded in place of an answer. */
export const ERROR_BODY = {
  error: {
    message: "Rate limit reached for requests",
    type: "requests",
    param: null,
    code: "rate_limit_exceeded",
  },
};

/** Each holds one call to schedule_window with ARGS (as an object or a JSON string). */
export const PROVIDER_CALLS: [string, unknown][] = [
  ["Gemini", GEMINI_CALL],
  ["Cohere v2", COHERE_V2_CALL],
  ["Bedrock Converse", BEDROCK_CONVERSE_CALL],
  ["Ollama", OLLAMA_CHAT_CALL],
];

/**
 * Bodies in no shape the parser reads: error bodies, event streams, and near misses that carry
 * one of a shape's key names without the nesting or the companion field that makes it that shape.
 * Each must come out `unrecognized`, never as a silent text answer.
 */
export const UNRECOGNIZED_PAYLOADS: [string, unknown][] = [
  ["an error body", ERROR_BODY],
  [
    "Gemini's error body",
    { error: { code: 429, message: "Resource has been exhausted", status: "RESOURCE_EXHAUSTED" } },
  ],
  ["Bedrock's error body", { message: "The provided model identifier is invalid." }],
  ["Ollama's error body", { error: "model 'llama9' not found" }],
  ["candidates that are no candidates", { candidates: [{ score: 0.9 }], modelVersion: "gemini-2.0-flash" }],
  ["candidates as a string", { candidates: "functionCall" }],
  ["an empty candidates list", { candidates: [], promptFeedback: { blockReason: "OTHER" } }],
  ["output.message without role or stopReason", { output: { message: { content: [{ text: "hi" }] } } }],
  ["a message without its envelope's field", { message: { role: "assistant", content: "Which time zone?" } }],
  ["a user message beside done", { message: { role: "user", content: "Which time zone?" }, done: true }],
  ["a message that is a string", { message: "Which time zone?", finish_reason: "COMPLETE" }],
  [
    "Anthropic's event stream",
    [
      { type: "message_start", message: { role: "assistant", content: [] } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Which time zone?" } },
    ],
  ],
  [
    "Bedrock's ConverseStream events",
    [{ messageStart: { role: "assistant" } }, { contentBlockDelta: { delta: { text: "Which time zone?" } } }],
  ],
  ["chunks of two providers", [GEMINI_STREAM[0], OLLAMA_CHAT_CALL]],
  ["an empty array", []],
];
