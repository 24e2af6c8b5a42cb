import { useQueryClient } from '@tanstack/react-query';
import { useEffect, type CSSProperties } from 'react';
import { NavLink } from 'react-router';

import { useSession } from '../../auth';
import { useUnreadCount } from '../api/get-unread-count';
import { holdLiveConnection } from '../live/live-connection';

/*
 * Styled inline: this file loads after the page has painted, for signed-in people only, and the
 * home page's stylesheet, which every page pays for (decision 002), has no rule to spare for it.
 */
// Beside the menu button on phones and the links on wide screens, whatever space is left.
const link: CSSProperties = { marginLeft: 'auto', marginRight: '-1rem' };
const badge: CSSProperties = {
  marginLeft: '0.25rem',
  minWidth: '1.25rem',
  padding: '0 0.375rem',
  borderRadius: '9999px',
  background: 'var(--color-error)',
  color: 'var(--color-error-content)',
  fontSize: '0.75rem',
  fontWeight: 700,
  lineHeight: '1.25rem',
  textAlign: 'center',
};

function ChatIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      width="22"
      height="22"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M4 5h16v11H9l-5 4z" />
      <path d="M8 9.5h8M8 12.5h5" />
    </svg>
  );
}

/**
 * The header's Messages link with the unread count, for buyers and sellers; it also keeps the
 * tab's live stream open, so the count (and any open thread) follows new messages at once.
 * Loaded lazily by the site header.
 */
export default function HeaderMessagesLink() {
  const { user } = useSession();
  const talks = !!user?.roles.some((role) => role === 'Buyer' || role === 'Seller');
  const queryClient = useQueryClient();
  const { data } = useUnreadCount(talks);

  useEffect(() => (talks ? holdLiveConnection(queryClient) : undefined), [talks, queryClient]);

  if (!talks) return null;
  const count = data?.unread ?? 0;
  const label = count > 0 ? `Messages, ${count} unread` : 'Messages';
  return (
    <NavLink
      to="/dashboard/messages"
      className="nav-link"
      style={link}
      aria-label={label}
      title={label}
    >
      <ChatIcon />
      {count > 0 && (
        <span aria-hidden="true" style={badge} data-testid="unread-badge">
          {count > 99 ? '99+' : count}
        </span>
      )}
    </NavLink>
  );
}
