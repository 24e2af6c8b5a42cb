import { useCallback, useState } from 'react';

/**
 * A message being written, kept per conversation (or car) in this tab's session storage: it
 * survives leaving the page and a reload, and goes with the tab (not to the next person on a
 * shared computer, as local storage would).
 */
export function useDraft(key: string): [string, (text: string) => void] {
  const storageKey = `carmarket.draft.${key}`;
  const [draft, setDraftState] = useState(() => {
    try {
      return sessionStorage.getItem(storageKey) ?? '';
    } catch {
      return '';
    }
  });
  const setDraft = useCallback(
    (text: string) => {
      setDraftState(text);
      try {
        if (text) sessionStorage.setItem(storageKey, text);
        else sessionStorage.removeItem(storageKey);
      } catch {
        // Storage full or refused (private mode): the draft lives as long as the page.
      }
    },
    [storageKey],
  );
  return [draft, setDraft];
}
