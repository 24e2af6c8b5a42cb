// What other features may use of the dashboard home: its figures' query keys, to refresh them.
export { statsKeys } from './api/query-keys';
