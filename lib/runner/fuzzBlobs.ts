/**
 * Offline world-state blobs for the gate fuzzer: what a sloppy model returns for the second
 * article's FUZZ_PROMPT, generated from a seed instead of asked for. Deterministic: blob i of a
 * seed is the same whatever n is, so two runs of one seed share their first blobs.
 */
import { Rng } from "../generate/rng";

/** The second article's prompt, word for word. */
export const FUZZ_PROMPT = `
Return ONLY JSON with keys user_id, resource_id, action_date, timezone.
Each key is an object:
  {"status": "known"|"unknown"|"conflict", "value": ..., "source": "..."}
Leave at least one of user_id, resource_id, action_date unknown.
Do not invent identifiers. Do not wrap the JSON in markdown.
`;

/** What a generated blob was made to be (the fuzzer never trusts it: the gate and the leak check decide). */
export const BLOB_KINDS = [
  "fully_known",
  "missing_keys",
  "unknown",
  "unknown_with_value",
  "conflict",
  "null_value",
  "empty_string",
  "no_value",
  "falsy_values",
  "wrong_status",
  "wrong_types",
  "bare_values",
  "extra_keys",
  "prototype_keys",
  "markdown_fence",
  "chatty",
  "truncated",
  "python_dict",
  "trailing_comma",
  "not_an_object",
] as const;
export type BlobKind = (typeof BLOB_KINDS)[number];

export interface Blob {
  kind: BlobKind;
  text: string;
}

const NAMES = ["user_id", "resource_id", "action_date", "timezone"] as const;
const REQUIRED = ["user_id", "resource_id", "action_date"] as const;
type Entry = Record<string, unknown>;

function knownState(r: Rng): Record<string, unknown> {
  const day = String(r.int(1, 28)).padStart(2, "0");
  const month = String(r.int(1, 12)).padStart(2, "0");
  const state: Record<string, unknown> = {
    user_id: { status: "known", value: `u_${r.int(1, 9999)}`, source: r.pick(["session", "auth", "state"]) },
    resource_id: { status: "known", value: `room_${r.int(1, 99)}`, source: "catalog" },
    action_date: { status: "known", value: `2026-${month}-${day}`, source: "user" },
  };
  const tz = r.int(0, 2);
  if (tz === 1) state.timezone = { status: "known", value: r.pick(["Asia/Tokyo", "UTC", "Europe/Berlin"]) };
  if (tz === 2) state.timezone = { status: "unknown", value: null, source: "unset" };
  return state;
}

/** Some of the required names, at least one. */
function someRequired(r: Rng): string[] {
  const picked = REQUIRED.filter(() => r.chance(0.4));
  return picked.length > 0 ? picked : [r.pick(REQUIRED)];
}

function alter(r: Rng, state: Record<string, unknown>, f: (e: Entry, name: string) => unknown): void {
  for (const n of someRequired(r)) state[n] = f({ ...(state[n] as Entry) }, n);
}

const json = (v: unknown, r: Rng) => (r.chance(0.5) ? JSON.stringify(v) : JSON.stringify(v, null, 2));

/** Blob number `index` (from 0) of `seed`. */
export function generateBlob(seed: number, index: number): Blob {
  const r = new Rng(`fuzz-gate:${seed}:${index}`);
  const kind = r.pick(BLOB_KINDS);
  const s = knownState(r);
  switch (kind) {
    case "fully_known":
      return { kind, text: json(s, r) };
    case "missing_keys":
      for (const n of someRequired(r)) delete s[n];
      return { kind, text: json(s, r) };
    case "unknown":
      alter(r, s, () => ({ status: "unknown" }));
      return { kind, text: json(s, r) };
    case "unknown_with_value":
      // A plausible value under an unknown status: the guess the gate must not take.
      alter(r, s, (e) => ({ ...e, status: "unknown" }));
      return { kind, text: json(s, r) };
    case "conflict":
      alter(r, s, (e) => ({ status: "conflict", value: e.value, source: "conflict" }));
      return { kind, text: json(s, r) };
    case "null_value":
      alter(r, s, (e) => ({ ...e, value: null }));
      return { kind, text: json(s, r) };
    case "empty_string":
      alter(r, s, (e) => ({ ...e, value: "" }));
      return { kind, text: json(s, r) };
    case "no_value":
      alter(r, s, (e) => ({ status: e.status, source: e.source }));
      return { kind, text: json(s, r) };
    case "falsy_values":
      // 0 and false are values: a known 0 may book.
      alter(r, s, (e) => ({ ...e, value: r.pick([0, false, [], {}, " "]) }));
      return { kind, text: json(s, r) };
    case "wrong_status":
      alter(r, s, (e) => ({
        ...e,
        status: r.pick(["KNOWN", "Known", "probably", "yes", "", 1, true, null]),
      }));
      return { kind, text: json(s, r) };
    case "wrong_types":
      alter(r, s, (e) =>
        r.pick([
          { ...e, source: r.pick([5, null, true, ["agent"]]) },
          { ...e, status: ["known"] },
          { ...e, value: { nested: e.value } },
          { ...e, value: [e.value] },
        ]),
      );
      return { kind, text: json(s, r) };
    case "bare_values":
      alter(r, s, (e) => (r.chance(0.8) ? e.value : null));
      return { kind, text: json(s, r) };
    case "extra_keys":
      if (r.chance(0.5)) alter(r, s, (e) => ({ ...e, confidence: r.pick([0.9, "high"]) }));
      else s[r.pick(["notes", "meta", "user"])] = r.pick([{ status: "known", value: "x" }, "see above", 3]);
      return { kind, text: json(s, r) };
    case "prototype_keys": {
      // JSON may name __proto__ or constructor: they must stay plain facts, never a prototype.
      const key = r.pick(["__proto__", "constructor", "toString", "hasOwnProperty"]);
      const required = r.pick(REQUIRED);
      const text = json(s, r).replace(/^\{/, `{"${key}":{"${required}":{"status":"known","value":"leak"}},`);
      delete s[required];
      return { kind, text: r.chance(0.5) ? text : json({ [key]: { status: "known", value: "x" }, ...s }, r) };
    }
    case "markdown_fence":
      return { kind, text: `\`\`\`${r.pick(["json", "", "JSON"])}\n${json(s, r)}\n\`\`\`` };
    case "chatty":
      return {
        kind,
        text: `${r.pick(["Sure! Here is the JSON:", "Here you go:", "I left action_date unknown."])} ${json(s, r)}${r.chance(0.5) ? " Let me know if you need more." : ""}`,
      };
    case "truncated": {
      const t = json(s, r);
      return { kind, text: t.slice(0, r.int(1, t.length - 1)) };
    }
    case "python_dict":
      return {
        kind,
        text: JSON.stringify(s).replaceAll('"', "'").replaceAll("null", "None").replaceAll("true", "True"),
      };
    case "trailing_comma":
      return { kind, text: JSON.stringify(s).replace(/\}$/, ",}") };
    case "not_an_object":
      return {
        kind,
        text: r.pick(["", "null", "42", "true", '"u_1"', "[]", JSON.stringify([s]), "unknown", "{}garbage"]),
      };
  }
}

/** Blobs 0..n-1 of a seed. */
export function* generateBlobs(seed: number, n: number): Generator<Blob> {
  for (let i = 0; i < n; i++) yield generateBlob(seed, i);
}

export { NAMES as FUZZ_NAMES };
