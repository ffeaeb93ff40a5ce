/**
 * The limits on ask terms, in one place. Every writer of lexicon terms (the lexicon page,
 * `lexicon edit`, `suggest --apply`, a fixture import) and of a probe's own ask terms (the tune
 * page, `probes edit`, `probes add`, records with an inline probe, a fixture import) applies them,
 * so no writer can store what the others refuse. Each refusal names the field or term and the
 * limit it passed.
 *
 * Why these numbers: a field's terms are read and edited by a person (500 is far more than any
 * field learned from text needs; the lexicon page refused more than that already), a term is a
 * phrase (100 characters), and matching is linear in the terms, so the total bounds the work a
 * text costs. A lexicon or probe stored before the limits existed stays readable and scores as it
 * is; only the next save must bring it within them.
 */

export const TERM_LIMITS = Object.freeze({
  /** Characters in one term. */
  termLength: 100,
  /** Terms of one field: a lexicon entry, or a probe's own terms for one field. */
  termsPerField: 500,
  /** Fields with an entry in the lexicon, or with terms of their own in one probe. */
  fields: 200,
  /** Terms in all: the whole lexicon, or all of one probe's own terms. */
  totalTerms: 5_000,
});

const n = (x: number) => x.toLocaleString("en-US");

/** A term as a message shows it: quoted, escapes visible, long ones cut. */
export function showTerm(term: string): string {
  const cut = term.length > 40 ? `${term.slice(0, 40)}…` : term;
  return JSON.stringify(cut);
}

/** C0 and C1 control characters (NUL among them), and halves of a surrogate pair standing alone. */
const CONTROL = /[\p{Cc}\p{Cs}]/u;

/**
 * Why a term's text cannot be stored, whatever its list: empty once trimmed, a control
 * character, or too long. Null when it can. The lexicon's own rules (whole words, `*`) are in
 * terms.ts; a probe's terms are substrings and take any other text.
 */
export function termTextProblem(term: string): string | null {
  if (term.trim() === "") return "a term cannot be empty (or only spaces)";
  const c = CONTROL.exec(term);
  if (c) {
    const code = c[0].codePointAt(0) ?? 0;
    return `the term ${showTerm(term)} holds a control character (U+${code.toString(16).toUpperCase().padStart(4, "0")}), which no reply can be matched on`;
  }
  if (term.length > TERM_LIMITS.termLength)
    return `the term ${showTerm(term)} is ${n(term.length)} characters long; a term holds at most ${TERM_LIMITS.termLength}`;
  return null;
}

/** Why one field's list is too long, or null. */
export function fieldTermsProblem(field: string, count: number): string | null {
  if (count <= TERM_LIMITS.termsPerField) return null;
  return `${field}: ${n(count)} terms; a field holds at most ${n(TERM_LIMITS.termsPerField)} (${n(count - TERM_LIMITS.termsPerField)} too many)`;
}

/**
 * Why lists of terms by field pass the limits on fields, terms per field or terms in all, or null.
 * `what` names the whole in the message ("the lexicon", "probe schedule_window").
 */
export function termListsProblem(
  lists: Readonly<Record<string, readonly string[]>>,
  what: string,
): string | null {
  const fields = Object.keys(lists);
  let total = 0;
  let withTerms = 0;
  for (const f of fields) {
    const count = lists[f].length;
    const p = fieldTermsProblem(f, count);
    if (p) return p;
    total += count;
    if (count > 0) withTerms++;
  }
  if (withTerms > TERM_LIMITS.fields)
    return `${what} has terms for ${n(withTerms)} fields; at most ${n(TERM_LIMITS.fields)}`;
  if (total > TERM_LIMITS.totalTerms)
    return `${what} holds ${n(total)} terms; at most ${n(TERM_LIMITS.totalTerms)} in all`;
  return null;
}

/**
 * Why a probe's own ask terms cannot be stored (each term's text, then the lists' limits), or null.
 * The terms are substrings of the reply (the seed's rule): nothing else is asked of them.
 */
export function askTermsProblem(
  askTerms: Readonly<Record<string, readonly string[]>>,
  what: string,
): string | null {
  for (const [field, terms] of Object.entries(askTerms))
    for (const t of terms) {
      const p = termTextProblem(t);
      if (p) return `${field}: ${p}`;
    }
  return termListsProblem(askTerms, what);
}

/** A stored lexicon or probe made before the limits: what it passes, for a notice (null: within them). */
export function overLimitNotice(
  lists: Readonly<Record<string, readonly string[]>>,
  what: string,
): string | null {
  const p = termListsProblem(lists, what);
  return p === null
    ? null
    : `${what} is past the limits (${p}). It was saved before they existed and still scores as it is; the next save must bring it within them.`;
}
