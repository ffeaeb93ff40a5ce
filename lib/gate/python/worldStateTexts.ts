// Generated world states for the gate's tests, as JSON text, so that what JavaScript refuses (NaN,
// Infinity, broken text) can be sent too: clean states, messy ones (bad statuses and sources, extra
// keys, values where facts should be, "" and null and 0 and false as values), non-objects, broken text.
import fc from "fast-check";

/** One call through a gate: the world state as JSON text, the names to fill in, what the tool requires. */
export interface GateRequest {
  payload: string;
  names: string[];
  requires: string[];
  mutating: boolean;
  args: unknown[];
  async: boolean;
}

const NAMES = [
  "user_id",
  "resource_id",
  "action_date",
  "timezone",
  "__proto__",
  "constructor",
  "toString",
  "1",
  "01",
  "0",
  "4294967295",
  "",
  "a b",
  "é",
  "😀",
];
/** Mostly the article's four names, so that states often hold every fact a call requires. */
const nameArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NAMES.slice(0, 4)) },
  { weight: 1, arbitrary: fc.constantFrom(...NAMES) },
);
/** A name as JSON text: plain, or spelled with escapes that read as the same name. */
const keyText = fc.oneof(
  { weight: 6, arbitrary: nameArb.map((n) => JSON.stringify(n)) },
  { weight: 1, arbitrary: fc.constantFrom('"user\\u005fid"', '"\\u0031"', '"\\ud83d\\ude00"', '"\\ud800"') },
  { weight: 1, arbitrary: fc.string({ maxLength: 4 }).map((s) => JSON.stringify(s)) },
);

const NOT_JSON = ["NaN", "Infinity", "-Infinity"];
const finite = fc.double().filter(Number.isFinite);
const jsonValueText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '""',
      "null",
      "0",
      "false",
      "true",
      "-0",
      "0.0",
      "-0.0",
      "1e400",
      "-1e400",
      "1E+2",
      "12345678901234567890",
      "1e21",
      "1e-7",
      "123e-20",
      "4.35",
      "[]",
      "{}",
      '" "',
      '"\\ud800"',
      '"x\\u0000y\\n"',
      JSON.stringify("é".repeat(45)),
      JSON.stringify("😀".repeat(25)),
      JSON.stringify(`${"a".repeat(39)}😀b`),
      `"${"\\u2028".repeat(41)}"`,
    ),
  },
  { weight: 2, arbitrary: finite.map((n) => JSON.stringify(n)) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 50 }).map((s) => JSON.stringify(s)) },
);
/** Any value's text, NaN and Infinity (which JSON does not have) included. */
const valueText = fc.oneof(
  { weight: 12, arbitrary: jsonValueText },
  { weight: 1, arbitrary: fc.constantFrom(...NOT_JSON) },
);

const ws = fc.constantFrom("", "", " ", "\n", "\t", " \r\n ");
const join = (parts: string[], gap: string) => `{${gap}${parts.join(`,${gap}`)}${gap}}`;

const STATUSES = ['"known"', '"known"', '"known"', '"known"', '"unknown"', '"conflict"', '"conflict"'];
const BAD_STATUSES = ['"Known"', '"KNOWN"', '""', '"known "', "1", "null", "true", "[]", "{}"];
const SOURCES = ['"session"', '"user"', '"agent"', '""'];
const BAD_SOURCES = ["1", "null", "false", '["user"]', "{}"];
const EXTRA_KEYS = ['"confidence": 0.9', '"1": 2', '"Status": "known"', '"value2": null'];

/** A fact as JSON text; a `messy` one may be malformed: a bad or missing status, a bad source, an extra key. */
function factText(messy: boolean): fc.Arbitrary<string> {
  const status = messy
    ? fc.option(
        fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...STATUSES) }, fc.constantFrom(...BAD_STATUSES)),
        {
          freq: 20,
        },
      )
    : fc.constantFrom(...STATUSES);
  const source = messy
    ? fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...SOURCES) }, fc.constantFrom(...BAD_SOURCES))
    : fc.constantFrom(...SOURCES);
  const extra = messy
    ? fc.oneof({ weight: 15, arbitrary: fc.constant(null) }, fc.constantFrom(...EXTRA_KEYS))
    : fc.constant(null);
  return fc
    .record({
      status,
      value: fc.option(messy ? valueText : jsonValueText, { freq: 4 }),
      source: fc.option(source, { freq: 2 }),
      extra,
      gap: ws,
    })
    .chain(({ gap, extra, ...keys }) => {
      const entries = Object.entries(keys)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => `"${k}": ${v}`);
      if (extra !== null) entries.push(extra);
      return fc.shuffledSubarray(entries, { minLength: entries.length }).map((e) => join(e, gap));
    });
}

/** A world state's text: facts by name, clean or messy; a messy one may also hold a value where a fact should be. */
function stateText(messy: boolean): fc.Arbitrary<string> {
  const entry = messy ? fc.oneof({ weight: 8, arbitrary: factText(true) }, valueText) : factText(false);
  return fc.tuple(fc.array(fc.tuple(keyText, entry), { maxLength: 6 }), ws).map(([entries, gap]) =>
    join(
      entries.map(([k, f]) => `${k}:${gap}${f}`),
      gap,
    ),
  );
}

const BREAKS = ["cut", ",}", "'", "//", "bom", "tail", "nbsp"] as const;
function broken(text: string, n: number, how: (typeof BREAKS)[number]): string {
  if (how === "cut") return text.slice(0, n % Math.max(1, text.length));
  if (how === "bom") return `\ufeff${text}`;
  if (how === "tail") return `${text} x`;
  if (how === "nbsp") return `\u00a0${text}`;
  if (how === "'") return text.replaceAll('"', "'");
  if (how === "//") return `// state\n${text}`;
  return text.replace(/}$/, ",}");
}

const payloadArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 10, arbitrary: stateText(false) },
  { weight: 6, arbitrary: stateText(true) },
  { weight: 2, arbitrary: valueText },
  {
    weight: 2,
    arbitrary: fc
      .tuple(stateText(false), fc.nat(), fc.constantFrom(...BREAKS))
      .map(([text, n, how]) => broken(text, n, how)),
  },
);

export const requestArb: fc.Arbitrary<GateRequest> = fc.record({
  payload: payloadArb,
  names: fc.array(nameArb, { maxLength: 3 }),
  requires: fc.array(nameArb, { maxLength: 4 }),
  mutating: fc.boolean().chain((b) => (b ? fc.constant(true) : fc.boolean())),
  args: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 2 }).map((a) => JSON.parse(JSON.stringify(a))),
  async: fc.integer({ min: 0, max: 7 }).map((n) => n === 0),
});
