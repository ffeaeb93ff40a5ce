/**
 * What-ifs for the dashboard, on one long-lived worker thread (whatIfThread.ts) with its own
 * connection: the server's request thread only waits for the answer. Requests are answered in
 * order; the thread is started on the first and kept (cached on globalThis for dev reloads).
 */
import type { Worker } from "node:worker_threads";
import type { WhatIfReport } from "../../lib/tune/whatIf";
import type { Db } from "../client";
import { startThread } from "../jobs/threads";
import type { TuneDraft, WhatIfOptions } from "./whatIf";
import type { WhatIfReply, WhatIfRequest } from "./whatIfThread";

/** A draft the what-if refused (a bad term, an unknown probe): its message is for the user. */
export class WhatIfRefused extends Error {}

interface State {
  worker: Worker;
  seq: number;
  waiting: Map<number, { resolve: (r: WhatIfReport) => void; reject: (e: Error) => void }>;
}

const g = globalThis as unknown as { assumeprobeWhatIf?: State };

function thread(): State {
  if (g.assumeprobeWhatIf) return g.assumeprobeWhatIf;
  const worker = startThread("what-if", null);
  const state: State = { worker, seq: 0, waiting: new Map() };
  worker.on("message", (m: WhatIfReply) => {
    const w = state.waiting.get(m.id);
    if (!w) return;
    state.waiting.delete(m.id);
    if ("report" in m) w.resolve(m.report);
    else w.reject(m.usage ? new WhatIfRefused(m.error) : new Error(m.error));
  });
  const fail = (e: Error) => {
    for (const w of state.waiting.values()) w.reject(e);
    state.waiting.clear();
    if (g.assumeprobeWhatIf === state) g.assumeprobeWhatIf = undefined;
  };
  worker.on("error", fail);
  worker.on("exit", (code) => fail(new Error(`the what-if thread stopped (exit code ${code})`)));
  // The thread never keeps the server from exiting.
  worker.unref();
  g.assumeprobeWhatIf = state;
  return state;
}

export function whatIfOffThread(db: Db, draft: TuneDraft, options?: WhatIfOptions): Promise<WhatIfReport> {
  const s = thread();
  const id = ++s.seq;
  return new Promise((resolve, reject) => {
    s.waiting.set(id, { resolve, reject });
    s.worker.postMessage({ id, path: db.path, draft, options } satisfies WhatIfRequest);
  });
}
