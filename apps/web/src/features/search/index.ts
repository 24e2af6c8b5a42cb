// What other features may use of search: the place type-ahead (the car form picks a location).
export { PlacePicker, type PickedPlace } from './components/place-picker';
