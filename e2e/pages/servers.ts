import { type ChildProcess, spawn } from "node:child_process";
import { request as httpRequest } from "node:http";
import { connect, createServer } from "node:net";
import { join } from "node:path";
import { E2E_DB } from "./e2eDb";

const ROOT = process.cwd();
const NEXT_BIN = join(ROOT, "node_modules", "next", "dist", "bin", "next");

/** A port nothing listens on right now (the system picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const addr = s.address();
      s.close(() => resolve(typeof addr === "object" && addr ? addr.port : 0));
    });
  });
}

/** Whether something accepts connections on 127.0.0.1:port. */
export function listening(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const c = connect({ port, host });
    c.once("connect", () => {
      c.destroy();
      resolve(true);
    });
    c.once("error", () => resolve(false));
  });
}

export interface StartedServer {
  port: number;
  base: string;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * `next start` run by hand, as a user would outside `npm start`, on the e2e build and database,
 * with `args` (say `-H 0.0.0.0`) and extra environment; resolves once it accepts connections.
 */
export async function startNext(
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<StartedServer> {
  const port = await freePort();
  const childEnv: Record<string, string | undefined> = {
    ...process.env,
    ASSUMEPROBE_DB: E2E_DB,
    ASSUMEPROBE_HOME: ROOT,
    NEXT_TELEMETRY_DISABLED: "1",
    ASSUMEPROBE_TOKEN: undefined,
    ASSUMEPROBE_ALLOWED_HOSTS: undefined,
    ...env,
  };
  for (const k of Object.keys(childEnv)) if (childEnv[k] === undefined) delete childEnv[k];
  const child: ChildProcess = spawn(process.execPath, [NEXT_BIN, "start", ...args, "-p", String(port)], {
    cwd: ROOT,
    env: childEnv as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout?.on("data", (c) => {
    out += c;
  });
  child.stderr?.on("data", (c) => {
    out += c;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + 60_000;
  // Poll the address it listens on (a wildcard takes loopback connections too).
  const h = args[args.indexOf("-H") + 1];
  const pollHost = args.includes("-H") && h !== "0.0.0.0" && h !== "::" ? h : "127.0.0.1";
  while (!(await listening(port, pollHost))) {
    if (child.exitCode !== null) throw new Error(`next start exited ${child.exitCode}: ${out}`);
    if (Date.now() > deadline) throw new Error(`next start did not listen on ${port}: ${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    port,
    base: `http://127.0.0.1:${port}`,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One HTTP request exactly as given (the Host header included, no redirects followed, no
 * normalization of the path): what curl or an attacker's page would send.
 */
export function rawRequest(
  port: number,
  path: string,
  {
    method = "GET",
    headers = {},
    body,
  }: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path,
        method,
        headers: { host: `127.0.0.1:${port}`, ...headers },
        agent: false,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c) => {
          text += c;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
