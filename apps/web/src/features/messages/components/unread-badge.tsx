import { useUnreadCount } from '../api/get-unread-count';

/** The unread count beside Messages in the dashboard's menu (nothing when there is none). */
export function UnreadBadge() {
  const { data } = useUnreadCount();
  const count = data?.unread ?? 0;
  if (count === 0) return null;
  return (
    <span className="badge badge-sm badge-error ml-auto" data-testid="menu-unread-badge">
      {count > 99 ? '99+' : count}
      <span className="sr-only"> unread</span>
    </span>
  );
}
