import { MESSAGE_MAX_LENGTH } from '@carmarket/shared';
import { useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';

import { errorMessage } from '../../../lib/api-client';
import { useSendMessage } from '../api/send-message';
import { useDraft } from '../use-draft';
import { useOnline } from '../use-online';

const count = new Intl.NumberFormat('en-US');

/**
 * Writes in a conversation. The draft is kept (per conversation) until it is sent; Enter sends,
 * Shift+Enter starts a new line. Send stays focusable when it cannot act, and says why.
 */
export function Composer({ conversationId }: { conversationId: string }) {
  const [draft, setDraft] = useDraft(conversationId);
  const online = useOnline();
  const send = useSendMessage();
  const [error, setError] = useState<string | null>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  const id = useId();

  const text = draft.trim();
  const left = MESSAGE_MAX_LENGTH - text.length;
  const blocker = !online
    ? 'You are offline. Your message is kept here; send it when you are back online.'
    : text === ''
      ? 'Write a message to send it. Enter sends; Shift+Enter starts a new line.'
      : left < 0
        ? `A message can have at most ${count.format(MESSAGE_MAX_LENGTH)} characters; take out ${count.format(-left)}.`
        : null;
  const hint =
    blocker ??
    (left <= 200
      ? `${count.format(left)} characters left`
      : 'Enter sends; Shift+Enter starts a new line.');
  const warning = !online || left < 0;

  function handleSubmit(event?: FormEvent) {
    event?.preventDefault();
    if (blocker || send.isPending) return;
    setError(null);
    send.mutate(
      { conversationId, body: text },
      {
        onSuccess: () => {
          setDraft('');
          field.current?.focus();
        },
        onError: (failure) => setError(errorMessage(failure)),
      },
    );
  }

  function handleKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      handleSubmit();
    }
  }

  return (
    <form onSubmit={handleSubmit} className="border-t border-base-300 p-3 sm:p-4">
      <label htmlFor={`${id}-text`} className="sr-only">
        Your message
      </label>
      <textarea
        ref={field}
        id={`${id}-text`}
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={handleKeyDown}
        rows={3}
        placeholder="Write a message"
        aria-describedby={`${id}-hint`}
        aria-invalid={left < 0 || undefined}
        className="textarea w-full resize-y text-base"
        data-testid="composer"
      />
      {error && (
        <p role="alert" className="alert alert-error alert-soft mt-2">
          {error}
        </p>
      )}
      <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
        <p
          id={`${id}-hint`}
          className={`min-w-0 flex-1 text-sm ${warning ? 'text-error' : 'text-muted'}`}
        >
          {hint}
        </p>
        <button
          type="submit"
          className="button button-primary"
          aria-disabled={blocker || send.isPending ? true : undefined}
          aria-describedby={`${id}-hint`}
        >
          {send.isPending ? 'Sending…' : 'Send'}
        </button>
      </div>
    </form>
  );
}
