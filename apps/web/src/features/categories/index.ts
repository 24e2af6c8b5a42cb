// What other features may use of categories: the list everyone reads (the car form's choice)
// and its query key, which the admin's changes to the categories refresh.
export { categoriesQueryOptions, useCategories } from './api/get-categories';
