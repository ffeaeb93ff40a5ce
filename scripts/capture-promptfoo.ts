/**
 * Captures a real promptfoo results file (`promptfoo eval -o FILE.json`): promptfoo from npm (run
 * with npx, never a dependency of this project: it is large) evaluates three test cases against
 * the fake chat-completions server on loopback (lib/runner/testServer.ts) through two providers:
 * its OpenAI chat provider (a tool call alone, a text, text beside a call) and its HTTP provider,
 * whose `transformResponse` gives the message as a JSON string. Both carry a fake API key, to test
 * that none is stored.
 *
 *   npx tsx scripts/capture-promptfoo.ts [OUT_FILE]   (default fixtures/testdata/promptfoo/eval-results.json)
 */
import { spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type SeenRequest, type Step, startChatServer, toolCall } from "../lib/runner/testServer";
import { SCHEDULE_WINDOW_TOOLS } from "./captureTools";

/** The promptfoo release captured (the newest that runs on Node 20). */
export const PROMPTFOO_VERSION = "0.121.20";
/** A fake key: the capture checks the results file carries it where promptfoo writes it. */
const FAKE_KEY = "sk-capture-FAKE-0123456789";

const TOOLS = SCHEDULE_WINDOW_TOOLS;

/** The answer to each test case, told by its request's last message. */
function answer(r: SeenRequest): Step {
  const messages = Array.isArray(r.body.messages) ? r.body.messages : [];
  const ask = String((messages[messages.length - 1] as { content?: unknown })?.content ?? "");
  const model = "gpt-4o-mini-2024-07-18";
  if (ask.includes("Asia/Tokyo"))
    return {
      model,
      message: {
        content: null,
        tool_calls: [
          toolCall("schedule_window", {
            user_id: "u_9182",
            starts_at: "2026-09-08T09:00:00",
            timezone: "Asia/Tokyo",
          }),
        ],
      },
    };
  if (ask.includes("UTC"))
    return {
      model,
      message: {
        content: "Booking it now.",
        tool_calls: [
          toolCall("schedule_window", {
            user_id: "u_9182",
            starts_at: "2026-09-08T09:00:00",
            timezone: "UTC",
          }),
        ],
      },
    };
  return { model, message: { content: "Which time zone should the window use?" } };
}

function config(baseURL: string): string {
  const prompt = JSON.stringify([
    { role: "system", content: "You schedule maintenance windows. Ask when something is missing." },
    { role: "user", content: "{{ask}}" },
  ]);
  return JSON.stringify(
    {
      description: "schedule_window against a fake OpenAI-compatible server",
      prompts: [{ id: "schedule", label: "schedule", raw: prompt }],
      providers: [
        {
          id: "openai:chat:gpt-4o-mini",
          config: { apiBaseUrl: baseURL, apiKey: FAKE_KEY, temperature: 0, tools: TOOLS },
        },
        {
          id: `${baseURL}/chat/completions`,
          label: "fake-http",
          config: {
            method: "POST",
            headers: { "content-type": "application/json", Authorization: `Bearer ${FAKE_KEY}` },
            body: { model: "gpt-4o-mini", messages: "{{ prompt }}", tools: TOOLS },
            transformResponse: "JSON.stringify(json.choices[0].message)",
          },
        },
      ],
      tests: [
        {
          description: "time zone given",
          vars: {
            ask: "Schedule a maintenance window for user u_9182 starting 2026-09-08T09:00:00 in Asia/Tokyo.",
            world_state: {
              user_id: { status: "known", value: "u_9182", source: "state" },
              timezone: { status: "known", value: "Asia/Tokyo", source: "state" },
            },
          },
        },
        {
          description: "time zone missing",
          vars: { ask: "Schedule a maintenance window for user u_9182 starting 2026-09-08T09:00:00." },
        },
        {
          description: "UTC",
          vars: { ask: "Schedule a maintenance window for user u_9182 starting 2026-09-08T09:00:00 UTC." },
        },
      ],
    },
    null,
    2,
  );
}

const out = resolve(
  process.argv[2] ??
    join(import.meta.dirname, "..", "fixtures", "testdata", "promptfoo", "eval-results.json"),
);
const dir = mkdtempSync(join(tmpdir(), "capture-promptfoo-"));
const chat = await startChatServer([], answer);
try {
  writeFileSync(join(dir, "promptfooconfig.json"), config(chat.baseURL));
  // Not spawnSync: the fake server answers from this process's event loop.
  const child = spawn(
    "npx",
    [
      "-y",
      `promptfoo@${PROMPTFOO_VERSION}`,
      "eval",
      "-c",
      "promptfooconfig.json",
      "-o",
      "out.json",
      "-j",
      "1",
      "--no-cache",
      "--no-table",
    ],
    {
      cwd: dir,
      stdio: "inherit",
      env: {
        ...process.env,
        PROMPTFOO_CONFIG_DIR: join(dir, ".promptfoo"),
        PROMPTFOO_DISABLE_TELEMETRY: "1",
        PROMPTFOO_DISABLE_UPDATE: "1",
        PROMPTFOO_DISABLE_SHARING: "1",
        OPENAI_API_KEY: "",
      },
    },
  );
  const status = await new Promise<number | null>((ok) => child.on("exit", (code) => ok(code)));
  // promptfoo exits 100 when a test fails; there are no assertions here, so any other status is a failure.
  if (status !== 0 && status !== 100) throw new Error(`promptfoo eval exited ${status}`);
  copyFileSync(join(dir, "out.json"), out);
  console.log(`promptfoo ${PROMPTFOO_VERSION}: ${chat.requests.length} requests -> ${out}`);
} finally {
  await chat.close();
  rmSync(dir, { recursive: true, force: true });
}
