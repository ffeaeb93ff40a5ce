import { createHash } from "node:crypto";
import type { Probe } from "./schema";

/** JSON with object keys sorted, so equal definitions give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, (v as Record<string, unknown>)[k]]),
        )
      : v,
  );
}

/** The digest of a validated probe: a change to its world or scoring configuration changes it. */
export function probeDigest(probe: Probe): string {
  return createHash("sha256").update(canonicalJson(probe)).digest("hex");
}
