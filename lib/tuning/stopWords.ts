/**
 * English function words. A candidate term made only of them ("could you", "is it") ranks after
 * one with a content word when their counts tie: on the labels at hand they fix the same fields,
 * but a content word ("located", "city") says what is asked and turns fewer unlabelled fields to
 * ASK. Only a tie-break: counts always rank first.
 */
const STOP_WORDS = new Set(
  (
    "a about all also am an and any are as at be been but by can could did do does for from had has " +
    "have he her here him his how i i'd i'll i'm i've if in into is it it's its just let like may me " +
    "might more most my no not now of on or our please shall she should so some such than that the " +
    "their them then there these they this those to too us very was we were what what's when where " +
    "which while who whom whose why will with would you you'd you'll you're your yours"
  ).split(" "),
);

/** Whether a term holds a word that is not a function word. */
export function isContentTerm(term: string): boolean {
  for (const w of term.toLowerCase().split(/\s+/))
    if (w !== "" && !STOP_WORDS.has(w.replace(/\*$/, ""))) return true;
  return false;
}
