/**
 * Every occurrence of many terms in a text in one pass (Aho-Corasick over UTF-16 code units), so
 * counting a hundred thousand candidate terms over a hundred thousand texts reads each text once,
 * and a field's five hundred lexicon terms cost a reply one reading, not five hundred.
 * Compact: one map of transitions for the whole automaton and typed arrays for its links, so a
 * large vocabulary costs tens of megabytes, not an object per node. Pure; the caller decides
 * which occurrences count (whole words, inside a question).
 */

export interface TermFinder {
  readonly terms: readonly string[];
  /**
   * Calls `hit(termId, start, end)` for every occurrence, in order of its end, until `hit` returns
   * true. Returns the automaton's work: transitions and failure links followed plus occurrences
   * reported, which is at most about twice the text's length plus the occurrences (what tests of
   * linear time count).
   */
  scan(text: string, hit: (term: number, start: number, end: number) => unknown): number;
}

const CODE_UNITS = 0x10000;

function grow(a: Int32Array<ArrayBuffer>, n: number): Int32Array<ArrayBuffer> {
  if (n < a.length) return a;
  const b = new Int32Array(Math.max(n + 1, a.length * 2));
  b.set(a);
  return b;
}

export function termFinder(terms: readonly string[]): TermFinder {
  const next = new Map<number, number>();
  const go = (node: number, c: number) => next.get(node * CODE_UNITS + c);
  let size = 1;
  /** The term that ends at a node (-1: none). */
  let term = new Int32Array(64).fill(-1);
  for (let id = 0; id < terms.length; id++) {
    const t = terms[id];
    if (t.length === 0) continue;
    let at = 0;
    for (let i = 0; i < t.length; i++) {
      const c = t.charCodeAt(i);
      let n = go(at, c);
      if (n === undefined) {
        n = size++;
        term = grow(term, n);
        term[n] = -1;
        next.set(at * CODE_UNITS + c, n);
      }
      at = n;
    }
    if (term[at] === -1) term[at] = id;
  }
  // Children by node, for the breadth-first pass over the failure links.
  const children: number[][] = Array.from({ length: size }, () => []);
  for (const [key, child] of next) children[Math.floor(key / CODE_UNITS)].push(key % CODE_UNITS, child);
  const fail = new Int32Array(size);
  /** The nearest node on the failure chain that ends a term (0: none). */
  const output = new Int32Array(size);
  const queue = new Int32Array(size);
  let tail = 0;
  for (let k = 0; k < children[0].length; k += 2) queue[tail++] = children[0][k + 1];
  for (let head = 0; head < tail; head++) {
    const u = queue[head];
    const kids = children[u];
    for (let k = 0; k < kids.length; k += 2) {
      const c = kids[k];
      const v = kids[k + 1];
      let f = fail[u];
      let g = go(f, c);
      while (g === undefined && f !== 0) {
        f = fail[f];
        g = go(f, c);
      }
      fail[v] = g !== undefined && g !== v ? g : 0;
      output[v] = term[fail[v]] !== -1 ? fail[v] : output[fail[v]];
      queue[tail++] = v;
    }
  }
  return {
    terms,
    scan(text, hit) {
      let at = 0;
      let work = 0;
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        let n = go(at, c);
        work++;
        while (n === undefined && at !== 0) {
          at = fail[at];
          n = go(at, c);
          work++;
        }
        at = n ?? 0;
        for (let o = term[at] !== -1 ? at : output[at]; o !== 0; o = output[o]) {
          const id = term[o];
          work++;
          if (hit(id, i + 1 - terms[id].length, i + 1) === true) return work;
        }
      }
      return work;
    },
  };
}
