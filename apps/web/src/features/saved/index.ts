// What other features may use of saved cars: the heart, for the home page's cards.
export { LazySaveCarButton } from './components/lazy-save-car-button';
