import { MESSAGE_MAX_LENGTH } from '@carmarket/shared';
import { useId, type FormEvent, type ReactNode } from 'react';

import { Dialog } from '../../../components/ui/dialog';
import { errorMessage } from '../../../lib/api-client';
import { useAskSeller } from '../api/ask-seller';
import { useDraft } from '../use-draft';
import { useOnline } from '../use-online';

/**
 * The first message to a car's seller, in a dialog: it starts the conversation (`POST
 * /api/listings/:id/messages`). The draft is kept per car, so a question begun on the car's page
 * and one begun from My Orders are the same.
 */
export function AskSellerDialog({
  car,
  open,
  onClose,
  onSent,
  title,
  description,
  label,
  placeholder,
}: {
  car: { _id: string };
  open: boolean;
  onClose: () => void;
  onSent: (conversationId: string) => void;
  title: string;
  description: ReactNode;
  /** The text box's label. */
  label: string;
  placeholder: string;
}) {
  const [draft, setDraft] = useDraft(`car.${car._id}`);
  const ask = useAskSeller();
  const online = useOnline();
  const id = useId();
  const text = draft.trim();
  const tooLong = text.length > MESSAGE_MAX_LENGTH;

  function handleClose() {
    ask.reset();
    onClose();
  }

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (text === '' || tooLong || ask.isPending) return;
    ask.mutate(
      { listingId: car._id, body: text },
      {
        onSuccess: ({ conversationId }) => {
          setDraft('');
          onSent(conversationId);
        },
      },
    );
  }

  return (
    <Dialog
      open={open}
      onClose={handleClose}
      title={title}
      description={description}
      busy={ask.isPending}
      wide
    >
      <form onSubmit={handleSubmit} className="form-stack">
        <div>
          <label htmlFor={`${id}-question`} className="font-semibold">
            {label}
          </label>
          <textarea
            id={`${id}-question`}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            rows={5}
            required
            placeholder={placeholder}
            aria-describedby={`${id}-count`}
            aria-invalid={tooLong || undefined}
            data-autofocus
            className="textarea mt-2 w-full text-base"
          />
          <p id={`${id}-count`} className={`mt-1 text-sm ${tooLong ? 'text-error' : 'text-muted'}`}>
            {tooLong
              ? `At most ${MESSAGE_MAX_LENGTH.toLocaleString('en-US')} characters; take out ${(text.length - MESSAGE_MAX_LENGTH).toLocaleString('en-US')}.`
              : `${(MESSAGE_MAX_LENGTH - text.length).toLocaleString('en-US')} characters left`}
          </p>
        </div>
        {!online && (
          <p role="status" className="alert alert-warning">
            You are offline. {label} is kept here; send it when you are back online.
          </p>
        )}
        {ask.isError && (
          <p role="alert" className="alert alert-error alert-soft">
            {errorMessage(ask.error)}
          </p>
        )}
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button
            type="button"
            className="button button-outline"
            onClick={handleClose}
            disabled={ask.isPending}
          >
            Cancel
          </button>
          <button
            type="submit"
            className="button button-primary"
            disabled={ask.isPending || !online}
          >
            {ask.isPending ? 'Sending…' : 'Send'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
