/** Helpers shared by the benchmark scripts: the scratch folder, load average, child timing. */
import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, writeSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { cliBundleIsFresh } from "../../scripts/cliBundle.js";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
/** Generated files and databases: never inside the project. */
export const BENCH_DIR = "/tmp/assumeprobe-bench";
export const CLI = join(ROOT, "bin", "assumeprobe.js");

export function benchDir(): string {
  mkdirSync(BENCH_DIR, { recursive: true });
  return BENCH_DIR;
}

/** The 1, 5 and 15 minute load averages, as `uptime` prints them. */
export function load(): string {
  return `load ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}`;
}

/** True when the 1-minute load says the 2 cores are busy with other work. */
export function loadIsHigh(threshold = 1.5): boolean {
  return loadavg()[0] > threshold;
}

/** Writes lines to a file in 4 MB blocks; returns the byte count. */
export function writeLines(path: string, lines: Iterable<string>): number {
  mkdirSync(dirname(path), { recursive: true });
  const fd = openSync(path, "w");
  let buf: string[] = [];
  let size = 0;
  let total = 0;
  const flush = () => {
    if (buf.length === 0) return;
    const b = Buffer.from(buf.join(""));
    writeSync(fd, b);
    total += b.length;
    buf = [];
    size = 0;
  };
  for (const l of lines) {
    buf.push(l, "\n");
    size += l.length + 1;
    if (size > 4 << 20) flush();
  }
  flush();
  closeSync(fd);
  return total;
}

/** Rebuilds dist/cli.mjs when a source is newer, so the CLI runs bundled (as installed), not via tsx. */
export function ensureCliBundle(): void {
  if (cliBundleIsFresh(ROOT)) return;
  console.log("(rebuilding the CLI bundle: node scripts/build-cli.js)");
  const r = spawnSync(process.execPath, [join(ROOT, "scripts", "build-cli.js")], { stdio: "inherit" });
  if (r.status !== 0) throw new Error("scripts/build-cli.js failed");
}

export interface ChildResult {
  code: number | null;
  seconds: number;
  /** Peak resident set size in MB (from /usr/bin/time -v, else the wrapper's children figure). */
  peakRssMb: number | null;
  stdout: string;
  stderr: string;
}

const TIME = "/usr/bin/time";

/**
 * Runs `node args...` and measures wall time and the child's peak RSS. With /usr/bin/time -v the
 * figure is the child's own; without it, a preloaded module makes the child print its own
 * process.resourceUsage().maxRSS at exit. stdout goes to a file when `stdoutPath` is given (e.g. /dev/null).
 */
export function runNode(
  args: string[],
  env: Record<string, string | undefined> = {},
  stdoutPath?: string,
): Promise<ChildResult> {
  const useTime = existsSync(TIME);
  const cmd = useTime ? TIME : process.execPath;
  const argv = useTime ? ["-v", process.execPath, ...args] : ["--import", wrapperPath(), ...args];
  return new Promise((resolve, reject) => {
    const out = stdoutPath ? openSync(stdoutPath, "w") : "pipe";
    const started = performance.now();
    const child = spawn(cmd, argv, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ["ignore", out, "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (d: Buffer) => {
      stdout += d.toString();
      if (stdout.length > 1 << 20) stdout = stdout.slice(-(1 << 19));
    });
    child.stderr?.on("data", (d: Buffer) => {
      stderr += d.toString();
      if (stderr.length > 1 << 20) stderr = stderr.slice(-(1 << 19));
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const seconds = (performance.now() - started) / 1000;
      if (typeof out === "number") closeSync(out);
      let peakRssMb: number | null = null;
      const m = useTime
        ? /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)
        : /^maxrss_kb=(\d+)$/m.exec(stderr);
      if (m) peakRssMb = Number(m[1]) / 1024;
      resolve({ code, seconds, peakRssMb, stdout, stderr });
    });
  });
}

/** A preload (used only without /usr/bin/time) that prints the process's own peak RSS at exit. */
function wrapperPath(): string {
  const p = join(benchDir(), "rss-report.mjs");
  if (!existsSync(p)) {
    const fd = openSync(p, "w");
    // resourceUsage().maxRSS is ru_maxrss of the process itself, in kilobytes on Linux.
    writeSync(
      fd,
      'process.on("exit", () => process.stderr.write("maxrss_kb=" + process.resourceUsage().maxRSS + "\\n"));\n',
    );
    closeSync(fd);
  }
  return p;
}

export function fmt(n: number, digits = 0): string {
  return n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Nearest-rank percentile. */
export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}
