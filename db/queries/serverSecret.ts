import { randomBytes } from "node:crypto";
import { chmodSync, linkSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";

/**
 * The server's secret: 32 random bytes in a file beside the database (`<db>.secret`, mode 0600),
 * made on first use. It keys the hashes of session ids and of the token (sessions.ts), so a copy of
 * the database without it allows no offline guessing. Deleting it ends every session.
 * An in-memory database gets a secret of its own, for the life of the process.
 */
const cache = new Map<string, Buffer>();

export const secretPath = (dbPath: string) => `${dbPath}.secret`;

export function serverSecret(dbPath: string): Buffer {
  const hit = cache.get(dbPath);
  if (hit) return hit;
  const secret = dbPath === ":memory:" ? randomBytes(32) : readOrCreate(secretPath(dbPath));
  cache.set(dbPath, secret);
  return secret;
}

function readOrCreate(path: string): Buffer {
  const existing = read(path);
  if (existing) return existing;
  // Written whole under another name, then linked into place: two processes starting at once
  // agree on one secret (the second link fails and it reads the first's).
  const tmp = `${path}.${process.pid}.${randomBytes(6).toString("hex")}`;
  writeFileSync(tmp, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
  try {
    linkSync(tmp, path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  } finally {
    unlinkSync(tmp);
  }
  const made = read(path);
  if (!made) throw new Error(`the server secret ${path} is empty or unreadable: delete it to make a new one`);
  return made;
}

function read(path: string): Buffer | null {
  let text: string;
  try {
    text = readFileSync(path, "utf8").trim();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
  // Readable by its owner only, whatever made it.
  if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  const key = Buffer.from(text, "base64url");
  return key.length >= 32 ? key : null;
}
