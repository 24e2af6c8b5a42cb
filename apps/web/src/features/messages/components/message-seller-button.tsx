import { useState } from 'react';
import { Link, useNavigate } from 'react-router';

import { useConversationForCar } from '../api/get-conversations';
import { AskSellerDialog } from './ask-seller-dialog';

export interface BoughtCar {
  _id: string;
  name: string;
  seller: string;
}

/**
 * "Message the seller" on a paid booking in My Orders (issue 51): leads to the buyer's
 * conversation about the car, or starts one, for a buyer who paid without asking anything. The
 * server lets them while the sale's conversation is open (messagesPolicy.closedBecause); the
 * page shows the button only then.
 */
export function MessageSellerButton({ car }: { car: BoughtCar }) {
  const existing = useConversationForCar(car._id, true);
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const label = (
    <>
      Message the seller<span className="sr-only"> of the {car.name}</span>
    </>
  );

  if (existing.data) {
    return (
      <Link
        to={`/dashboard/messages/${existing.data._id}`}
        className="button button-outline button-sm"
      >
        {label}
        {existing.data.unread > 0 && (
          <span className="badge badge-sm badge-error">
            {existing.data.unread}
            <span className="sr-only"> unread</span>
          </span>
        )}
      </Link>
    );
  }
  return (
    <>
      <button
        type="button"
        className="button button-outline button-sm"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        {label}
      </button>
      <AskSellerDialog
        car={car}
        open={open}
        onClose={() => setOpen(false)}
        onSent={(conversationId) => void navigate(`/dashboard/messages/${conversationId}`)}
        title={`Message ${car.seller} about the ${car.name}`}
        description="Arrange the hand-over, or ask about the papers and keys. Your message starts a conversation under Messages; the seller is told by email if they have not read it within a few minutes."
        label="Your message"
        placeholder="When and where can I collect the car?"
      />
    </>
  );
}
