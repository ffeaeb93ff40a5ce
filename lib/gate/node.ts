// The package's `assumeprobe/gate/node` entry (built beside `assumeprobe/gate`): the decision log as a
// file. Node's fs is the only thing it needs that the platform-neutral entry must not have.
import { appendFileSync, closeSync, fstatSync, mkdirSync, openSync, readSync } from "node:fs";
import { dirname } from "node:path";
import { type DecisionSink, type GateDecisionRecord, redactDecision } from "./decisionLog";

export interface FileSinkOptions {
  /** Replace every value by "[redacted]"; fact names, statuses and sources are kept. */
  redact?: boolean;
  /** Written into each record: the run the decisions belong to when the log is ingested. */
  run?: string;
  /** Written into each record: the model the agent ran. */
  model?: string;
}

/** True when the file exists, is not empty, and its last byte is not a newline (a line cut off by a crash). */
function endsMidLine(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return false;
  }
  try {
    const { size } = fstatSync(fd);
    if (size === 0) return false;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] !== 0x0a;
  } finally {
    closeSync(fd);
  }
}

/**
 * A sink that appends each decision to `path` as one JSON line, synchronously, so the line is on disk
 * before the side effect runs. A new file is readable by its owner only (the world state may hold personal
 * data); a file whose last line was cut off gets a newline first, so the next record stays whole.
 */
export function fileSink(path: string, options: FileSinkOptions = {}): DecisionSink {
  mkdirSync(dirname(path), { recursive: true });
  let pending = endsMidLine(path) ? "\n" : "";
  return (record: GateDecisionRecord) => {
    let out = options.redact ? redactDecision(record) : record;
    if (options.run !== undefined || options.model !== undefined) {
      out = { ...out };
      if (options.run !== undefined) out.run = options.run;
      if (options.model !== undefined) out.model = options.model;
    }
    appendFileSync(path, `${pending}${JSON.stringify(out)}\n`, { mode: 0o600 });
    pending = "";
  };
}
