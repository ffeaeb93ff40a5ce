/**
 * Every occurrence of many terms in a text in one pass (Aho-Corasick over UTF-16 code units), so
 * counting thousands of candidate terms over a hundred thousand texts reads each text once.
 * Pure; the caller decides which occurrences count (whole words, inside a question).
 */

interface Node {
  next: Map<number, number>;
  fail: number;
  /** Term ids that end here, including those reached through the failure links. */
  out: number[];
}

export interface TermFinder {
  readonly terms: readonly string[];
  /** Calls `hit(termId, start, end)` for every occurrence, in order of its end. */
  scan(text: string, hit: (term: number, start: number, end: number) => void): void;
}

export function termFinder(terms: readonly string[]): TermFinder {
  const nodes: Node[] = [{ next: new Map(), fail: 0, out: [] }];
  for (let id = 0; id < terms.length; id++) {
    const t = terms[id];
    if (t.length === 0) continue;
    let at = 0;
    for (let i = 0; i < t.length; i++) {
      const c = t.charCodeAt(i);
      let n = nodes[at].next.get(c);
      if (n === undefined) {
        n = nodes.length;
        nodes.push({ next: new Map(), fail: 0, out: [] });
        nodes[at].next.set(c, n);
      }
      at = n;
    }
    nodes[at].out.push(id);
  }
  // Breadth first: a node's failure link is the longest proper suffix that is also in the trie.
  const queue: number[] = [];
  for (const n of nodes[0].next.values()) queue.push(n);
  for (let q = 0; q < queue.length; q++) {
    const u = queue[q];
    for (const [c, v] of nodes[u].next) {
      let f = nodes[u].fail;
      while (f !== 0 && !nodes[f].next.has(c)) f = nodes[f].fail;
      const g = nodes[f].next.get(c);
      nodes[v].fail = g !== undefined && g !== v ? g : 0;
      const inherited = nodes[nodes[v].fail].out;
      if (inherited.length > 0) nodes[v].out = nodes[v].out.concat(inherited);
      queue.push(v);
    }
  }
  return {
    terms,
    scan(text, hit) {
      let at = 0;
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        while (at !== 0 && !nodes[at].next.has(c)) at = nodes[at].fail;
        at = nodes[at].next.get(c) ?? 0;
        const out = nodes[at].out;
        for (let k = 0; k < out.length; k++) {
          const id = out[k];
          hit(id, i + 1 - terms[id].length, i + 1);
        }
      }
    },
  };
}
