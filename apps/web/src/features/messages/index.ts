// What other features may use of messages: the unread count beside Messages in the dashboard's
// menu. The pages, the header's link and the car page's button are composed by app/.
export { UnreadBadge } from './components/unread-badge';
