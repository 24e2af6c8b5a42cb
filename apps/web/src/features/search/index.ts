// What other features may use of search: the place type-ahead (the car form picks a location),
// and a saved search's filters in words (the saved searches page).
export { PlacePicker, type PickedPlace } from './components/place-picker';
export { describeSearch } from './saved-search';
