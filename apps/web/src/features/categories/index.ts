// What other features may use of categories: the list the car form chooses from, and its query
// key, which the admin's changes to the categories refresh (not the home page's module: see
// category-choices.ts).
export { categoryChoicesQueryOptions, useCategoryChoices } from './api/category-choices';
