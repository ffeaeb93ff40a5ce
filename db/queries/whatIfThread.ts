/**
 * The thread the dashboard runs what-ifs on (see whatIfOffThread.ts): its own connection, so a
 * what-if over a million stored traces never holds up the server's other requests. Bundled as
 * dist/what-if.mjs.
 */
import { parentPort } from "node:worker_threads";
import { LexiconError } from "../../lib/lexicon/lexicon";
import { type Db, openDb } from "../client";
import { type TuneDraft, WhatIfError, type WhatIfOptions, whatIf } from "./whatIf";

export interface WhatIfRequest {
  id: number;
  path: string;
  draft: TuneDraft;
  options?: WhatIfOptions;
}

export type WhatIfReply =
  | { id: number; report: import("../../lib/tune/whatIf").WhatIfReport }
  | { id: number; error: string; usage: boolean };

const port = parentPort;
if (port) {
  const dbs = new Map<string, Db>();
  port.on("message", (m: WhatIfRequest) => {
    try {
      let db = dbs.get(m.path);
      if (!db) {
        db = openDb(m.path);
        dbs.set(m.path, db);
      }
      port.postMessage({ id: m.id, report: whatIf(db, m.draft, m.options) } satisfies WhatIfReply);
    } catch (e) {
      port.postMessage({
        id: m.id,
        error: e instanceof Error ? e.message : String(e),
        // A bad draft (a bad term, an unknown probe) is the user's to fix; anything else is ours.
        usage: e instanceof LexiconError || e instanceof WhatIfError,
      } satisfies WhatIfReply);
    }
  });
}
