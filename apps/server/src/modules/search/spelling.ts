import { BODY_TYPES, MAKES } from '@carmarket/shared';

/**
 * Typo tolerance for search text: each word typed is matched as typed (as a prefix) and as the
 * words of the car vocabulary (makes, models, body types) it resembles, so "toyta corola" finds
 * Toyota Corollas. Resemblance is pg_trgm's similarity (shared trigrams over all trigrams), worked
 * out here against the shipped vocabulary, so both databases run the same indexed full-text query.
 */

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

/** Words of search text as the database's 'simple' parser sees them (letters and digits). */
export function wordsOf(text: string): string[] {
  return fold(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

function trigrams(word: string): Set<string> {
  const padded = `  ${word} `;
  const set = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) set.add(padded.slice(i, i + 3));
  return set;
}

export function similarity(a: string, b: string): number {
  const x = trigrams(a);
  const y = trigrams(b);
  let shared = 0;
  for (const t of x) if (y.has(t)) shared++;
  return shared / (x.size + y.size - shared);
}

const SIMILAR_ENOUGH = 0.4;

/** Every word of every make, model and body type, as the index stores it, with its trigrams. */
const VOCABULARY = (() => {
  const words = new Map<string, string>();
  const add = (text: string) => {
    // The index keeps accents ("citroën"); matching ignores them.
    for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
      if (word.length >= 3 && /\p{L}/u.test(word)) words.set(word, fold(word));
    }
  };
  for (const [make, models] of Object.entries(MAKES)) {
    add(make);
    models.forEach(add);
  }
  BODY_TYPES.forEach(add);
  return [...words].map(([stored, folded]) => ({ stored, folded }));
})();

/** The vocabulary words a typed word may have meant (itself excluded), closest first. */
export function spellingsOf(word: string, max = 3): string[] {
  if (word.length < 3) return [];
  return VOCABULARY.filter((entry) => entry.stored !== word)
    .map((entry) => ({ word: entry.stored, score: similarity(word, entry.folded) }))
    .filter((entry) => entry.score >= SIMILAR_ENOUGH)
    .sort((a, b) => b.score - a.score)
    .slice(0, max)
    .map((entry) => entry.word);
}

/**
 * A `to_tsquery('simple', …)` text: every word must match, each as typed (prefix) or as one of
 * its likely spellings. Words hold only letters and digits, so nothing typed can change the
 * query's syntax. Null when the text has no words.
 */
export function textQueryOf(text: string): string | null {
  const words = wordsOf(text).slice(0, 8);
  if (words.length === 0) return null;
  return words
    .map((word) => {
      const options = [`${word}:*`, ...spellingsOf(word)];
      return options.length === 1 ? options[0] : `(${options.join(' | ')})`;
    })
    .join(' & ');
}
