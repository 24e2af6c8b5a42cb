// What other features may use of messages: the unread count beside Messages in the dashboard's
// menu, and "Message the seller" on a paid booking in My Orders. The pages, the header's link
// and the car page's button are composed by app/.
export { UnreadBadge } from './components/unread-badge';
export { LazyMessageSellerButton as MessageSellerButton } from './components/lazy-message-seller-button';
