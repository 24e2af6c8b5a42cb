// What other features may use of selling: the words and colours of a car's status (the admin's
// view of a person's cars shows them as My cars does).
export { ListingStatusBadge } from './components/car-labels';
