/**
 * Calls (calls.ts) for the dashboard, answered on a long-lived worker thread (worker.ts) per kind
 * of call with its own connection, so a what-if or the suggestions over a million stored traces
 * never hold up the server's other requests: the request thread only waits for the answer.
 * Calls of a kind are answered in order; a thread is started on the first and kept (cached on
 * globalThis for dev reloads), and stopped when a call runs past its time.
 */
import type { Worker } from "node:worker_threads";
import { UserError } from "../../lib/errors";
import type { Db } from "../client";
import type { CallArgs, CallName, CallReply, CallResult } from "./calls";
import { startThread } from "./threads";
import type { WorkerStart } from "./worker";

/** A call the thread refused (a bad term, an unknown probe): its message is for the user. */
export class CallRefused extends UserError<"call_refused"> {
  constructor(message: string) {
    super("call_refused", message);
  }
}

/**
 * A call that ran past its time: the user's to act on (a narrower scope, fewer suggestions), so its
 * message is shown as it is.
 */
export class CallTimedOut extends UserError<"call_timeout"> {
  constructor(seconds: number) {
    super("call_timeout", `given up after ${seconds} s`);
  }
}

interface Waiting {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  timer?: NodeJS.Timeout;
}

interface State {
  worker: Worker;
  seq: number;
  waiting: Map<number, Waiting>;
}

const g = globalThis as unknown as { assumeprobeCalls?: Map<CallName, State> };
const threads = () => {
  g.assumeprobeCalls ??= new Map();
  return g.assumeprobeCalls;
};

function thread(name: CallName): State {
  const hit = threads().get(name);
  if (hit) return hit;
  const worker = startThread("job", { calls: true } satisfies WorkerStart);
  const state: State = { worker, seq: 0, waiting: new Map() };
  const settle = (seq: number) => {
    const w = state.waiting.get(seq);
    state.waiting.delete(seq);
    if (w?.timer) clearTimeout(w.timer);
    return w;
  };
  worker.on("message", (m: CallReply) => {
    const w = settle(m.seq);
    if (!w) return;
    if ("value" in m) w.resolve(m.value);
    else w.reject(m.refused ? new CallRefused(m.error) : new Error(m.error));
  });
  const fail = (e: Error) => {
    if (threads().get(name) === state) threads().delete(name);
    for (const seq of [...state.waiting.keys()]) settle(seq)?.reject(e);
  };
  worker.on("error", fail);
  worker.on("exit", (code) => fail(new Error(`the ${name} thread stopped (exit code ${code})`)));
  // The thread never keeps the server from exiting.
  worker.unref();
  threads().set(name, state);
  return state;
}

/** Calls `name` on its thread; rejects with CallRefused for the user's errors, CallTimedOut after `timeoutMs`. */
export function callOffThread<N extends CallName>(
  db: Db,
  name: N,
  args: CallArgs<N>,
  opts: { timeoutMs?: number } = {},
): Promise<CallResult<N>> {
  const s = thread(name);
  const seq = ++s.seq;
  return new Promise((resolve, reject) => {
    const w: Waiting = { resolve: resolve as (v: unknown) => void, reject };
    if (opts.timeoutMs !== undefined)
      w.timer = setTimeout(() => {
        // The thread is busy with it and answers in order: stop it (the next call starts another).
        if (threads().get(name) === s) threads().delete(name);
        s.waiting.delete(seq);
        reject(new CallTimedOut(Math.round((opts.timeoutMs as number) / 1000)));
        void s.worker.terminate();
      }, opts.timeoutMs);
    s.waiting.set(seq, w);
    s.worker.postMessage({ seq, path: db.path, name, args });
  });
}
