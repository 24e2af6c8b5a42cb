import type { AdminUser } from '@carmarket/shared';
import { Link } from 'react-router';

import { formatDate } from '../../../lib/format-date';

export interface UserActions {
  onVerify: (user: AdminUser) => void;
  onDelete: (user: AdminUser) => void;
  /** The user being verified, for its button's progress. */
  verifyingId: string | null;
}

const isAdmin = (user: AdminUser) => user.roles.includes('admin');
const isSeller = (user: AdminUser) => user.roles.includes('Seller');

/** The spec's rule: admin rows show no role text. Someone who buys and sells shows both. */
function RoleText({ user }: { user: AdminUser }) {
  if (isAdmin(user)) return null;
  return user.roles.length > 0 ? (
    <>{user.roles.join(' and ')}</>
  ) : (
    <span className="text-muted">No role yet</span>
  );
}

function VerifiedBadge({ user }: { user: AdminUser }) {
  return (
    // Focused after verifying, in place of the Verify button that has gone.
    <span id={`verified-${user._id}`} tabIndex={-1} className="badge badge-sm badge-success">
      Verified
    </span>
  );
}

function Actions({ user, onVerify, onDelete, verifyingId }: { user: AdminUser } & UserActions) {
  const verifying = verifyingId === user._id;
  return (
    <div className="flex flex-wrap items-center gap-2">
      {isSeller(user) &&
        (user.verify === 'true' ? (
          <VerifiedBadge user={user} />
        ) : (
          <button
            type="button"
            className="button button-sm button-outline"
            onClick={() => onVerify(user)}
            disabled={verifying}
            aria-busy={verifying || undefined}
            aria-label={`Verify ${user.name}`}
          >
            {verifying && (
              <span className="loading loading-spinner loading-xs" aria-hidden="true" />
            )}
            {verifying ? 'Verifying…' : 'Verify'}
          </button>
        ))}
      {isSeller(user) && (
        <Link
          to={`/dashboard/users/${user._id}/cars`}
          className="button button-sm button-outline"
          aria-label={`Cars of ${user.name}`}
        >
          Cars
        </Link>
      )}
      {!isAdmin(user) && (
        <button
          type="button"
          className="button button-sm button-ghost text-error"
          onClick={() => onDelete(user)}
          aria-label={`Delete ${user.name}`}
        >
          Delete
        </button>
      )}
    </div>
  );
}

/** Screens 640 px and wider: a table. */
export function UsersTable({ users, ...actions }: { users: AdminUser[] } & UserActions) {
  return (
    <div className="hidden overflow-x-auto rounded-box border border-base-300 [contain:inline-size] sm:block">
      <table className="table [&_thead]:text-muted">
        <caption className="sr-only">Users</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Joined</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <tr key={user._id} data-testid="user-row">
              <th scope="row" className="font-semibold">
                {user.name}
              </th>
              <td className="break-all">{user.email}</td>
              <td>
                <RoleText user={user} />
              </td>
              <td className="whitespace-nowrap">{formatDate(user.createdAt)}</td>
              <td>
                <Actions user={user} {...actions} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Phones: a card per person. */
export function UserCards({ users, ...actions }: { users: AdminUser[] } & UserActions) {
  return (
    <ul className="grid gap-3 sm:hidden">
      {users.map((user) => (
        <li
          key={user._id}
          className="rounded-box border border-base-300 bg-base-100 p-4"
          data-testid="user-card"
        >
          <h2 className="font-semibold">{user.name}</h2>
          <p className="text-sm break-all text-muted">{user.email}</p>
          <p className="mt-1 text-sm">
            <RoleText user={user} />
            {!isAdmin(user) && ' · '}
            Joined {formatDate(user.createdAt)}
          </p>
          <div className="mt-3">
            <Actions user={user} {...actions} />
          </div>
        </li>
      ))}
    </ul>
  );
}
