/**
 * How text reads for lexicon matching (DESIGN.md, "Tuning the scorer"): lower-cased (the caller's
 * `toLowerCase`), then combining marks dropped, so `İstanbul` (lower-cased `i̇stanbul`) meets
 * `istanbul` and `café` meets `cafe`, and white-space runs read as one space, so a term's words
 * match across any run. A probe's own terms never read this: they keep the seed's lower-casing.
 * The embedded Python reference scorer (lib/fixtures/pythonReference.ts) folds the same way, from
 * the same tables (NO_SPACE_RANGES, SPACE_CHARS).
 *
 * Where DESIGN.md is silent:
 * - "Combining marks" are the nonspacing ones (Mn) of a character's canonical decomposition: the
 *   accents and the dot above. Spacing marks (Mc), which are part of a letter's shape in Indic
 *   scripts, stay, and count as word characters.
 * - A character with no mark in its decomposition stays as it is (a Hangul syllable is not split
 *   into its letters).
 */

/** JavaScript's `\s`, as code points: what a white-space run is made of. */
export const SPACE_CHARS = [
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006,
  0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
] as const;
const SPACES = new Set<number>(SPACE_CHARS);

/**
 * Scripts written without spaces between words, where a lexicon term matches as a substring (a
 * word boundary holds next to any of their characters): Thai, Lao, Myanmar, Khmer, and the CJK
 * blocks (Han, kana, Bopomofo and their extensions). Korean writes spaces and is not here.
 */
export const NO_SPACE_RANGES: readonly (readonly [number, number])[] = [
  [0x0e00, 0x0eff], // Thai, Lao
  [0x1000, 0x109f], // Myanmar
  [0x1780, 0x17ff], // Khmer
  [0x19e0, 0x19ff], // Khmer symbols
  [0x2e80, 0x2fdf], // CJK radicals, Kangxi radicals
  [0x3005, 0x3007], // ideographic iteration and number marks
  [0x3021, 0x3029], // Hangzhou numerals
  [0x3031, 0x3035], // kana repeat marks
  [0x3040, 0x30ff], // Hiragana, Katakana
  [0x3100, 0x312f], // Bopomofo
  [0x31a0, 0x31bf], // Bopomofo extended
  [0x31f0, 0x31ff], // Katakana phonetic extensions
  [0x3400, 0x4dbf], // CJK extension A
  [0x4e00, 0x9fff], // CJK unified ideographs
  [0xa9e0, 0xa9ff], // Myanmar extended-B
  [0xaa60, 0xaa7f], // Myanmar extended-A
  [0xf900, 0xfaff], // CJK compatibility ideographs
  [0xff66, 0xff9f], // half-width Katakana
  [0x1b000, 0x1b16f], // kana supplement and extended
  [0x20000, 0x323af], // CJK extensions B to H, compatibility supplement
];

/** Whether a code point belongs to a script written without spaces. */
export function isNoSpace(cp: number): boolean {
  if (cp < 0x0e00) return false;
  for (const [lo, hi] of NO_SPACE_RANGES) {
    if (cp < lo) return false;
    if (cp <= hi) return true;
  }
  return false;
}

const WORD = /[\p{L}\p{N}\p{M}_]/u;
const ASCII_WORD = /[A-Za-z0-9_]/;

/** Whether a code point is part of a word: a letter, a digit, a mark or `_`. */
export function isWordChar(cp: number): boolean {
  const c = String.fromCodePoint(cp);
  return cp < 0x80 ? ASCII_WORD.test(c) : WORD.test(c);
}

/** The code point that starts at `i` (-1 past the end). */
export function codePointAt(s: string, i: number): number {
  return i < s.length ? (s.codePointAt(i) as number) : -1;
}

/** The code point that ends just before `i` (-1 at the start). */
export function codePointBefore(s: string, i: number): number {
  if (i <= 0) return -1;
  const low = s.charCodeAt(i - 1);
  if (low >= 0xdc00 && low <= 0xdfff && i >= 2) {
    const high = s.charCodeAt(i - 2);
    if (high >= 0xd800 && high <= 0xdbff) return (high - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
  }
  return low;
}

const NONSPACING = /\p{Mn}/gu;
const HAS_NONSPACING = /\p{Mn}/u;
const folds = new Map<number, string>();

/** One (lower-cased) non-ASCII character as lexicon matching reads it. */
function foldChar(cp: number): string {
  let f = folds.get(cp);
  if (f === undefined) {
    const c = String.fromCodePoint(cp);
    const d = c.normalize("NFD");
    f = HAS_NONSPACING.test(d) ? d.replace(NONSPACING, "") : c;
    folds.set(cp, f);
  }
  return f;
}

/** A text as lexicon matching reads it, with where each of its code units came from. */
export interface Folded {
  readonly text: string;
  /**
   * For each code unit of `text`, the offset in the lower-cased text it came from, and one more
   * entry: that text's length. Null when folding changed nothing (offsets are the same).
   */
  readonly from: Int32Array | null;
}

/** Printable ASCII without two spaces in a row: folding changes nothing. */
const UNCHANGED = /^(?:[!-~]| (?! ))*$/;

/** Folds a lower-cased text for lexicon matching (see the top of this file). */
export function foldText(lower: string): Folded {
  if (UNCHANGED.test(lower)) return { text: lower, from: null };
  let out = "";
  // A folded character is never longer than two code units per code unit it came from.
  const from = new Int32Array(lower.length * 2 + 1);
  let n = 0;
  let inSpace = false;
  for (let i = 0; i < lower.length; ) {
    const cp = lower.codePointAt(i) as number;
    const width = cp > 0xffff ? 2 : 1;
    if (SPACES.has(cp)) {
      if (!inSpace) {
        out += " ";
        from[n++] = i;
        inSpace = true;
      }
    } else {
      const f = cp < 0x80 ? lower[i] : foldChar(cp);
      if (f !== "") {
        out += f;
        for (let k = 0; k < f.length; k++) from[n++] = i;
        inSpace = false;
      }
    }
    i += width;
  }
  from[n++] = lower.length;
  return { text: out, from: from.subarray(0, n) };
}

/** A (lower-cased) term as lexicon matching reads it. */
export function foldTerm(term: string): string {
  return foldText(term).text;
}
