import { closeSync, createReadStream, openSync, readSync, statSync } from "node:fs";
import { basename } from "node:path";
import { PassThrough, type Readable } from "node:stream";
import { createGunzip } from "node:zlib";

/** The source name used in record identity: the file's base name without `.gz` and one extension. */
export function sourceName(path: string): string {
  if (path === "-") return "stdin";
  let name = basename(path);
  if (name.toLowerCase().endsWith(".gz")) name = name.slice(0, -3);
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(0, dot) : name;
}

export class SourceError extends Error {}

function isGzipMagic(b: Buffer): boolean {
  return b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;
}

/** Checks that a file can be read, with a message that says why not. */
export function checkReadable(path: string): void {
  if (path === "-") return;
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new SourceError(`${path}: ${code === "ENOENT" ? "no such file" : `cannot read (${code})`}`);
  }
  if (st.isDirectory()) throw new SourceError(`${path}: is a directory, not a file`);
  try {
    closeSync(openSync(path, "r"));
  } catch (e) {
    throw new SourceError(`${path}: cannot read (${(e as NodeJS.ErrnoException).code})`);
  }
}

/** A byte stream of the file (or stdin for `-`), gunzipped when it starts with the gzip magic. */
export function openSource(path: string, stdin: Readable = process.stdin): Readable {
  if (path === "-") return maybeGunzip(stdin);
  checkReadable(path);
  return maybeGunzip(createReadStream(path, { highWaterMark: 1 << 20 }));
}

/**
 * A stream gunzipped when its first chunk has the gzip magic (stdin and uploads cannot be peeked,
 * so files are read the same way). A gzip stream that is cut off or corrupt fails with a message
 * that says so; an error of the input itself (I/O, an upload past its limit) passes through.
 */
export function maybeGunzip(input: Readable): Readable {
  const out = new PassThrough({ highWaterMark: 1 << 20 });
  let target: NodeJS.WritableStream | null = null;
  input.on("data", (chunk: Buffer) => {
    if (!target) {
      if (isGzipMagic(chunk)) {
        const gunzip = createGunzip();
        gunzip.on("error", (e) => out.destroy(new SourceError(`not valid gzip: ${e.message}`)));
        gunzip.pipe(out);
        target = gunzip;
      } else target = out;
    }
    if (!target.write(chunk)) {
      input.pause();
      (target as PassThrough).once("drain", () => input.resume());
    }
  });
  input.on("end", () => (target ?? out).end());
  input.on("error", (e) => out.destroy(e));
  return out;
}

/** The size of a file on disk (null for stdin or a gzip file, whose content size is unknown). */
export function sourceSize(path: string): number | null {
  if (path === "-") return null;
  const head = Buffer.alloc(2);
  const fd = openSync(path, "r");
  const n = readSync(fd, head, 0, 2, 0);
  closeSync(fd);
  return isGzipMagic(head.subarray(0, n)) ? null : statSync(path).size;
}
