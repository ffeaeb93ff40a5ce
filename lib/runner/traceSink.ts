import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { scrubValue } from "./scrub";

/**
 * Where trace records go, one line each, written as they arrive: a file opened for appending (one
 * write(2) per record, so a killed run loses nothing it had received; the kernel has the bytes when
 * `write` returns), or standard output.
 */
export interface TraceSink {
  write(record: unknown): void;
  close(): void;
}

/** Writes every byte of `data` to `fd` (a write may take fewer bytes than it was given). */
function writeAll(fd: number, data: Buffer): void {
  let off = 0;
  while (off < data.length) off += writeSync(fd, data, off, data.length - off);
}

/**
 * A sink that scrubs the secrets out of every record before it is written: a server may echo the
 * request's headers in its answer, and the key must never be stored. `newlineFirst` completes a
 * cut-off last line before the first record. Throws the file system's error when the file cannot be
 * opened for appending (the callers word it).
 */
export function openTraceSink(
  path: string | null,
  secrets: readonly string[],
  opts: { newlineFirst?: boolean } = {},
): TraceSink {
  const line = (record: unknown) => `${JSON.stringify(scrubValue(record, secrets))}\n`;
  if (path === null) {
    return {
      write: (record) => {
        process.stdout.write(line(record));
      },
      close: () => {},
    };
  }
  // A nightly job's runs/ folder need not exist yet.
  mkdirSync(dirname(path), { recursive: true });
  const fd = openSync(path, "a");
  if (opts.newlineFirst) writeAll(fd, Buffer.from("\n"));
  return {
    write: (record) => writeAll(fd, Buffer.from(line(record))),
    close: () => closeSync(fd),
  };
}
