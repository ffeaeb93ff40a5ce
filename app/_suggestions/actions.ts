"use server";

import { spawn } from "node:child_process";
import { join } from "node:path";
import { getDb } from "@/db/client";
import { describeZodError } from "@/lib/review/contract";
import { projectRoot } from "@/lib/root";
import { type SuggestionsJson, SuggestRequestSchema } from "@/lib/tuning/contract";

/** Longer than this and the suggestions are given up (the command keeps nothing). */
const TIMEOUT_MS = 5 * 60_000;
/** The most output read from the command. */
const MAX_OUTPUT = 64 << 20;

export type SuggestReply = { ok: true; result: SuggestionsJson } | { ok: false; error: string };

/**
 * Suggestions for the lexicon or a probe from the human labels in scope, with their what-ifs:
 * `assumeprobe suggest --json` in a child process, so ranking a hundred thousand labelled fields
 * never holds up the server's thread. Nothing is saved.
 */
export async function suggestAction(input: unknown): Promise<SuggestReply> {
  const parsed = SuggestRequestSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: describeZodError(parsed.error) };
  const r = parsed.data;
  const args = ["suggest", "--json", "--top", String(r.top)];
  if (r.probe !== null) args.push("--probe", r.probe);
  for (const run of r.runs) args.push("--run", run);
  for (const set of r.sets) args.push("--set", set);
  const db = getDb();
  const root = projectRoot();
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [join(/*turbopackIgnore: true*/ root, "bin", "assumeprobe.js"), ...args],
      {
        cwd: root,
        env: { ...process.env, ASSUMEPROBE_DB: db.path },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    let err = "";
    const timer = setTimeout(() => child.kill("SIGTERM"), TIMEOUT_MS);
    child.stdout.on("data", (d: Buffer) => {
      if (out.length < MAX_OUTPUT) out += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      if (err.length < 1 << 16) err += d.toString();
    });
    child.on("error", (e) => {
      clearTimeout(timer);
      resolve({ ok: false, error: `could not start the suggestions: ${e.message}` });
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code !== 0) {
        const why =
          err.trim().replace(/^assumeprobe: /, "") || (signal ? `stopped (${signal})` : `exit code ${code}`);
        return resolve({ ok: false, error: why });
      }
      try {
        resolve({ ok: true, result: JSON.parse(out.trim().split("\n")[0]) as SuggestionsJson });
      } catch {
        resolve({ ok: false, error: "the suggestions could not be read" });
      }
    });
  });
}
