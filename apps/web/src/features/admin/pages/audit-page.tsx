import { formatMoney, type AuditEntry } from '@carmarket/shared';

import { EmptyState, PageState } from '../../../components/ui/page-state';
import { formatDateTime } from '../../../lib/format-date';
import { usePage } from '../../../lib/page';
import { useAuditLog } from '../api/audit';

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
const count = (value: unknown) => (typeof value === 'number' ? value : 0);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** An amount of the entry's booking, in its currency; undefined when the details lack it. */
const money = (entry: AuditEntry, cents: unknown) =>
  typeof cents === 'number' && entry.booking
    ? formatMoney(cents, entry.booking.currency)
    : undefined;

/** The car of a booking an entry is about, else the booking's short reference. */
const bookingWhom = (entry: AuditEntry) =>
  entry.booking?.carName ?? `booking ${entry.targetId?.slice(0, 8) ?? ''}`;

/** What happened and to whom, in words, from the entry's action and details. */
export function describeEntry(entry: AuditEntry): { what: string; whom: string } {
  const { details } = entry;
  switch (entry.action) {
    case 'user.verify':
      return { what: 'Verified a seller', whom: text(details.email) ?? 'a user' };
    case 'user.delete': {
      const effects = [
        count(details.carsRemoved) > 0 && `${plural(count(details.carsRemoved), 'car')} removed`,
        count(details.bookingsCancelled) > 0 &&
          `${plural(count(details.bookingsCancelled), 'booking')} cancelled`,
      ].filter(Boolean);
      // The person deleting their own account (My account), or an admin deleting them.
      const whose =
        details.self === true ? 'their own' : text(details.role) ? `a ${text(details.role)}` : 'an';
      return {
        what: `Deleted ${whose} account${effects.length ? ` (${effects.join(', ')})` : ''}`,
        whom: text(details.email) ?? 'a user',
      };
    }
    case 'user.add-role':
      return {
        what: `Added the ${text(details.role) ?? 'new'} role to their account`,
        whom: text(details.email) ?? 'a user',
      };
    case 'listing.remove':
      return {
        what: `Removed a car${text(details.reason) ? `: ${text(details.reason)}` : ''}`,
        whom: text(details.name) ?? 'a car',
      };
    case 'category.add':
      return { what: 'Added a category', whom: text(details.name) ?? 'a category' };
    case 'category.update': {
      const changes = [
        text(details.renamedFrom) && `renamed from ${text(details.renamedFrom)}`,
        text(details.icon) && 'new icon',
        typeof details.position === 'number' && `moved to position ${details.position + 1}`,
      ].filter(Boolean);
      return {
        what: `Changed a category${changes.length ? ` (${changes.join(', ')})` : ''}`,
        whom: text(details.name) ?? 'a category',
      };
    }
    case 'category.delete': {
      const moved = count(details.carsMoved);
      return {
        what: `Deleted a category${moved > 0 && text(details.movedTo) ? ` (${plural(moved, 'car')} moved to ${text(details.movedTo)})` : ''}`,
        whom: text(details.name) ?? 'a category',
      };
    }
    case 'sale': {
      const amount =
        typeof details.amountCents === 'number' && text(details.currency)
          ? ` for ${formatMoney(details.amountCents, text(details.currency)!)}`
          : '';
      return {
        what: `Car sold${amount}`,
        whom: text(details.buyerEmail) ? `bought by ${text(details.buyerEmail)}` : 'a buyer',
      };
    }
    case 'payment.refunded':
      return {
        what: `Payment refunded${text(details.reason) ? `: ${text(details.reason)}` : ''}`,
        whom: bookingWhom(entry),
      };
    case 'handover.confirmed':
    case 'handover.released': {
      const share = money(entry, details.sellerCents);
      const fee = money(entry, details.feeCents);
      const released = share
        ? `: ${share} released to the seller${fee ? ` (fee ${fee})` : ''}`
        : ': money released to the seller';
      return {
        what: `${entry.action === 'handover.confirmed' ? 'Hand-over confirmed' : 'Hand-over days ended'}${released}`,
        whom: bookingWhom(entry),
      };
    }
    case 'dispute.opened':
      return { what: 'Problem reported: money kept until a ruling', whom: bookingWhom(entry) };
    case 'dispute.resolved': {
      const amount = money(entry, details.amountCents);
      const ruling =
        details.outcome === 'refund'
          ? `${amount ?? 'payment'} refunded to the buyer`
          : details.outcome === 'release'
            ? `${amount ?? 'money'} released to the seller`
            : 'resolved';
      return { what: `Dispute ruled: ${ruling}`, whom: bookingWhom(entry) };
    }
    default:
      return { what: entry.action, whom: `${entry.targetType} ${entry.targetId ?? ''}` };
  }
}

function Who({ entry }: { entry: AuditEntry }) {
  if (!entry.actor) return <span className="text-muted">CarMarket (automatic)</span>;
  return (
    <>
      <span className="block font-semibold">{entry.actor.name}</span>
      <span className="block text-sm break-all text-muted">{entry.actor.email}</span>
    </>
  );
}

/** Audit log (`/dashboard/audit`): who did what to whom, and when; newest first. */
export function AuditPage() {
  usePage({ title: 'Audit log' });
  const auditLog = useAuditLog();

  return (
    <section aria-labelledby="audit-title">
      <p className="section-eyebrow">Administration</p>
      <h1 id="audit-title" className="mt-2 text-3xl font-extrabold tracking-tight">
        Audit log
      </h1>
      <p className="mt-3 max-w-2xl leading-7 text-muted">
        The latest 100 verifications, deletions, changes to categories, sales, hand-overs, disputes
        and refunds, newest first.
      </p>
      <div className="mt-6">
        <PageState
          query={auditLog}
          loading="Loading the audit log…"
          what="the audit log"
          empty={
            <EmptyState
              title="Nothing recorded yet"
              description="Verifications, deletions, sales, hand-overs, disputes and refunds will show here."
            />
          }
        >
          {(data) => (
            <>
              <div className="hidden overflow-x-auto rounded-box border border-base-300 [contain:inline-size] sm:block">
                <table className="table [&_thead]:text-muted">
                  <caption className="sr-only">Audit log, newest first</caption>
                  <thead>
                    <tr>
                      <th scope="col">When</th>
                      <th scope="col">Who</th>
                      <th scope="col">What</th>
                      <th scope="col">Whom</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.map((entry) => {
                      const { what, whom } = describeEntry(entry);
                      return (
                        <tr key={entry._id} data-testid="audit-row">
                          <td className="whitespace-nowrap">
                            <time dateTime={entry.createdAt}>
                              {formatDateTime(entry.createdAt)}
                            </time>
                          </td>
                          <td>
                            <Who entry={entry} />
                          </td>
                          <td>{what}</td>
                          <td className="break-all">{whom}</td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
              <ul className="grid gap-3 sm:hidden">
                {data.map((entry) => {
                  const { what, whom } = describeEntry(entry);
                  return (
                    <li key={entry._id} className="rounded-box border border-base-300 p-4">
                      <p className="font-semibold">{what}</p>
                      <p className="text-sm break-all">{whom}</p>
                      <p className="mt-2 text-sm text-muted">
                        By {entry.actor ? entry.actor.name : 'CarMarket (automatic)'} ·{' '}
                        <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time>
                      </p>
                    </li>
                  );
                })}
              </ul>
            </>
          )}
        </PageState>
      </div>
    </section>
  );
}
