// What other features may use of VIN decoding (decision 033): Fill from VIN on the car form. The
// car page imports components/vin-decoded-note.tsx itself: through here it would load Fill from
// VIN, and with it zod (about 25 KB), which the car page has no other need of.
export { FillFromVinButton, useFillFromVin } from './components/fill-from-vin';
