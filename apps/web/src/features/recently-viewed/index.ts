// What the app's routes use of the recently viewed cars: the row, and recording a car opened.
export { RecentlyViewed } from './components/recently-viewed';
export { recordViewed } from './recently-viewed';
