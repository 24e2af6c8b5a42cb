import { formatMoney, type Dispute, type DisputeStatus } from '@carmarket/shared';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';

import { LoadMore } from '../../../components/ui/load-more';
import { EmptyState, PageState } from '../../../components/ui/page-state';
import { formatDate } from '../../../lib/format-date';
import { usePage } from '../../../lib/page';
import { useQueryParams } from '../../../lib/use-query-params';
import { useDisputes } from '../api/disputes';
import {
  ResolveDisputeDialog,
  rulingWords,
  type Ruling,
} from '../components/resolve-dispute-dialog';

const TABS: readonly {
  status: DisputeStatus;
  label: string;
  heading: string;
  empty: { title: string; description: string };
}[] = [
  {
    status: 'open',
    label: 'Open',
    heading: 'Open disputes',
    empty: {
      title: 'No open disputes',
      description: 'When a buyer reports a problem with a car they paid for, it shows here.',
    },
  },
  {
    status: 'resolving',
    label: 'Refunds under way',
    heading: 'Refunds under way',
    empty: {
      title: 'No refund is under way',
      description: 'A refund the card processor has not finished shows here until it does.',
    },
  },
  {
    status: 'resolved',
    label: 'Resolved',
    heading: 'Resolved disputes',
    empty: {
      title: 'No resolved disputes',
      description: 'A dispute you released to the seller or refunded to the buyer shows here.',
    },
  },
];

function tabOf(status: DisputeStatus) {
  return TABS.find((tab) => tab.status === status) ?? TABS[0]!;
}

const DISPUTES_PATH = '/dashboard/disputes';

const OUTCOME = { release: 'Released to the seller', refund: 'Refunded to the buyer' } as const;

function DisputeCard({ dispute, onRule }: { dispute: Dispute; onRule: (ruling: Ruling) => void }) {
  const titleId = `dispute-${dispute._id}`;
  return (
    <li
      aria-labelledby={titleId}
      className="rounded-box border border-base-300 bg-base-100 p-4 card-shadow sm:p-5"
      data-testid="dispute"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={titleId} className="text-lg font-bold">
          <Link to={`/listing/${dispute.listingId}`} className="hover:text-primary hover:underline">
            {dispute.carName}
          </Link>
        </h3>
        <p className="text-lg font-bold">{formatMoney(dispute.amount, dispute.currency)}</p>
      </div>
      <dl className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="text-muted">Buyer</dt>
        <dd className="min-w-0 break-words">
          {dispute.buyerName} ·{' '}
          <a href={`mailto:${dispute.buyerEmail}`} className="text-link">
            {dispute.buyerEmail}
          </a>
        </dd>
        <dt className="text-muted">Seller</dt>
        <dd>{dispute.sellerName}</dd>
        <dt className="text-muted">Opened</dt>
        <dd>
          <time dateTime={dispute.createdAt}>{formatDate(dispute.createdAt)}</time>
        </dd>
        <dt className="text-muted">Reason</dt>
        <dd className="whitespace-pre-line">{dispute.reason}</dd>
        {dispute.outcome && (
          <>
            <dt className="text-muted">Ruling</dt>
            <dd>
              {OUTCOME[dispute.outcome]}
              {dispute.resolvedAt && (
                <>
                  {' '}
                  on <time dateTime={dispute.resolvedAt}>{formatDate(dispute.resolvedAt)}</time>
                </>
              )}
            </dd>
          </>
        )}
        {dispute.note && (
          <>
            <dt className="text-muted">Note</dt>
            <dd className="whitespace-pre-line">{dispute.note}</dd>
          </>
        )}
      </dl>
      {dispute.status === 'resolving' && (
        <p className="mt-4 text-sm text-muted">
          The ruling stands; the payment provider is still carrying it out. It finishes by itself
          within a few minutes.
        </p>
      )}
      {dispute.status === 'open' && (
        <div className="mt-4 flex flex-col gap-2 sm:flex-row">
          <button
            type="button"
            className="button button-primary button-sm"
            onClick={() => onRule({ dispute, outcome: 'release' })}
          >
            Release to seller<span className="sr-only"> for the {dispute.carName}</span>
          </button>
          <button
            type="button"
            className="button button-outline button-sm"
            onClick={() => onRule({ dispute, outcome: 'refund' })}
          >
            Refund buyer<span className="sr-only"> for the {dispute.carName}</span>
          </button>
        </div>
      )}
    </li>
  );
}

function DisputeList({
  status,
  onRule,
}: {
  status: DisputeStatus;
  onRule: (ruling: Ruling) => void;
}) {
  const disputes = useDisputes(status);
  const { empty } = tabOf(status);
  return (
    <PageState
      query={disputes}
      loading="Loading disputes…"
      what="the disputes"
      isEmpty={(data) => data.pages[0]?.items.length === 0}
      empty={<EmptyState title={empty.title} description={empty.description} />}
    >
      {(data) => (
        <>
          <ul className="grid gap-4">
            {data.pages
              .flatMap((page) => page.items)
              .map((dispute) => (
                <DisputeCard key={dispute._id} dispute={dispute} onRule={onRule} />
              ))}
          </ul>
          <LoadMore
            hasMore={disputes.hasNextPage}
            loading={disputes.isFetchingNextPage}
            onMore={() => void disputes.fetchNextPage()}
            noun="disputes"
          />
        </>
      )}
    </PageState>
  );
}

/**
 * Disputes (`/dashboard/disputes`, admins): buyers' problems with cars they paid for, each
 * released to the seller or refunded to the buyer with a note; `?status=` shows the others.
 */
export function DisputesPage() {
  usePage({ title: 'Disputes' });
  const [params] = useQueryParams();
  const asked = params.get('status');
  const status = TABS.find((tab) => tab.status === asked)?.status ?? 'open';
  // The list below asks the same; every page answers how many disputes each tab holds.
  const counts = useDisputes(status).data?.pages.at(-1)?.counts;
  const [ruling, setRuling] = useState<Ruling | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const doneRef = useRef<HTMLParagraphElement>(null);

  // The buttons that opened the dialog left with the dispute: the message takes focus instead.
  useEffect(() => {
    if (done) doneRef.current?.focus();
  }, [done]);

  return (
    <div className="max-w-4xl">
      <p className="section-eyebrow">Administration</p>
      <h1 className="mt-2 text-3xl font-extrabold tracking-tight sm:text-4xl">Disputes</h1>
      <p className="mt-3 max-w-2xl leading-7 text-muted">
        Buyers who paid for a car and reported a problem instead of confirming hand-over. The money
        is held until you release it to the seller or refund the buyer; both are mailed your note.
      </p>

      <nav aria-label="Disputes by status" className="mt-6">
        <ul className="flex flex-wrap gap-2">
          {TABS.map((tab) => (
            <li key={tab.status}>
              <Link
                to={tab.status === 'open' ? DISPUTES_PATH : `${DISPUTES_PATH}?status=${tab.status}`}
                aria-current={tab.status === status ? 'page' : undefined}
                className={`button button-sm ${tab.status === status ? 'button-primary' : 'button-outline'}`}
                onClick={() => setDone(null)}
              >
                {tab.label}
                {counts && ` (${counts[tab.status]})`}
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      <p
        ref={doneRef}
        tabIndex={-1}
        role="status"
        className={done ? 'alert alert-success alert-soft mt-6' : 'sr-only'}
      >
        {done}
      </p>

      <section aria-labelledby="disputes-title" className="mt-6">
        <h2 id="disputes-title" className="sr-only">
          {tabOf(status).heading}
        </h2>
        <DisputeList status={status} onRule={setRuling} />
      </section>

      <ResolveDisputeDialog
        ruling={ruling}
        onClose={() => setRuling(null)}
        onResolved={(resolved, answered) => setDone(rulingWords(resolved, answered).done)}
      />
    </div>
  );
}
