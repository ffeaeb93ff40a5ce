import type OpenAI from "openai";

/**
 * The tool both capture scripts offer the model (scripts/capture-otel.ts,
 * scripts/capture-promptfoo.ts): the built-in schedule_window probe's tool, in the chat
 * completions shape, so the captured files resolve to that probe.
 */
export const SCHEDULE_WINDOW_TOOLS: OpenAI.Chat.Completions.ChatCompletionTool[] = [
  {
    type: "function",
    function: {
      name: "schedule_window",
      description: "Schedule a maintenance window for a user.",
      parameters: {
        type: "object",
        properties: {
          user_id: { type: "string" },
          starts_at: { type: "string", description: "Local start time, ISO 8601 without offset" },
          timezone: { type: "string", description: "IANA time zone" },
        },
        required: ["user_id", "starts_at", "timezone"],
      },
    },
  },
];
