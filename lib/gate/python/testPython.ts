// Test helpers: the Python twin written to a scratch folder, run by a python3 on this machine.
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { PYTHON_CANDIDATES } from "../../fixtures/testPython";
import { pythonGateModule } from "./module";

let python: string | undefined;

/** The first python3 that runs; throws, never skips, when there is none (CI installs one). */
export function python3(): string {
  if (python) return python;
  for (const py of PYTHON_CANDIDATES) {
    try {
      execFileSync(py, ["-c", "pass"], { stdio: "ignore" });
      python = py;
      return py;
    } catch {
      // try the next one
    }
  }
  throw new Error(`no python3 (tried ${PYTHON_CANDIDATES.join(", ")}): the Python twin's tests need one`);
}

/** A scratch folder holding assumeprobe_gate.py (and `files`); call `remove` when done. */
export function twinFolder(files: Record<string, string> = {}): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "assumeprobe-gate-py-"));
  writeFileSync(join(dir, "assumeprobe_gate.py"), pythonGateModule("0.0.0-test"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs `code` with the twin importable; stdout, and stderr joined on failure. */
export function runPython(dir: string, code: string, input?: string): string {
  try {
    return execFileSync(python3(), ["-W", "error", "-c", code], {
      cwd: dir,
      encoding: "utf8",
      input,
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1", PYTHONIOENCODING: "utf-8" },
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; message: string };
    throw new Error(`python failed: ${err.stderr || err.message}\n${err.stdout ?? ""}`);
  }
}

/** One long-lived Python process answering one JSON line on stdout for each JSON line on stdin. */
export class PythonLines {
  private readonly proc: ChildProcessWithoutNullStreams;
  private readonly waiting: ((line: string) => void)[] = [];
  private stderr = "";

  constructor(dir: string, script: string) {
    this.proc = spawn(python3(), ["-W", "error", "-u", "-c", script], {
      cwd: dir,
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1", PYTHONIOENCODING: "utf-8" },
    });
    this.proc.stderr.on("data", (d) => {
      this.stderr += String(d);
    });
    createInterface({ input: this.proc.stdout }).on("line", (line) => this.waiting.shift()?.(line));
    this.proc.on("exit", (code) => {
      for (const w of this.waiting.splice(0)) w(JSON.stringify({ crashed: code, stderr: this.stderr }));
    });
  }

  ask(request: unknown): Promise<unknown> {
    return new Promise((resolve) => {
      this.waiting.push((line) => resolve(JSON.parse(line)));
      this.proc.stdin.write(`${JSON.stringify(request)}\n`);
    });
  }

  close(): void {
    this.proc.stdin.end();
    this.proc.kill();
  }
}
