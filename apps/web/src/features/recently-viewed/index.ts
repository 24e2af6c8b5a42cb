// What the app uses of the recently viewed cars: the row, recording a car opened, and clearing
// the list (an account deleted).
export { RecentlyViewed } from './components/recently-viewed';
export { clearRecentlyViewed, recordViewed } from './recently-viewed';
