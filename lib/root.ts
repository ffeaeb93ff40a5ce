import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

let cached: string | null = null;

function findRoot(): string {
  if (process.env.ASSUMEPROBE_HOME) return resolve(process.env.ASSUMEPROBE_HOME);
  let dir = process.cwd();
  for (;;) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg)) {
      try {
        if (JSON.parse(readFileSync(pkg, "utf8")).name === "assumeprobe") return dir;
      } catch {
        // not ours: keep looking upwards
      }
    }
    const up = dirname(dir);
    if (up === dir) return process.cwd();
    dir = up;
  }
}

/**
 * The project folder, resolved from the package rather than the working directory, so the CLI
 * and the server share one database. The bin and `npm start` set ASSUMEPROBE_HOME; otherwise the
 * nearest folder above the working directory whose package.json is this package.
 */
export function projectRoot(): string {
  cached ??= findRoot();
  return cached;
}
