/**
 * Who may call what: the status each kind of caller gets from each route, with real ids and a
 * valid body (access-matrix.test.ts makes the calls). Columns, in the order of CALLERS
 * (test/api-calls.ts):
 *
 *   anonymous, buyer (cookie), buyer (bearer token only), another buyer, seller (the cars'),
 *   another seller, admin, a deleted account (its old cookie)
 *
 * 401: not signed in. 403: you can see it but may not do this. 404: you may not see it (as if it
 * did not exist; decision 008). 400/409/415 after access was granted: the request itself.
 */
export const ACCESS: Record<string, string> = {
  'GET /api/health': '200 200 200 200 200 200 200 200',
  'GET /api/ready': '200 200 200 200 200 200 200 200',
  'GET /api/sign-in-options': '200 200 200 200 200 200 200 200',
  'POST /api/user': '401 200 200 403 403 403 403 401',
  'POST /api/google/user': '401 200 200 403 403 403 403 401',
  'GET /api/user/admin/{email}': '401 200 200 403 403 403 200 401',
  'GET /api/user/buyer/{email}': '401 200 200 403 403 403 200 401',
  'GET /api/user/seller/{email}': '401 200 200 403 403 403 200 401',
  // Only a cookie session mints bearer tokens: a bearer alone is refused (issue 29).
  'GET /api/jwt': '401 200 403 403 403 403 403 401',
  'GET /api/category': '200 200 200 200 200 200 200 200',
  'POST /api/category': '401 200 200 200 403 403 403 401',
  'GET /api/category/{id}': '401 200 200 200 200 200 200 401',
  // The categories an admin runs (issue 33); the icons to choose from are public images.
  'GET /api/categories': '401 403 403 403 403 403 200 401',
  'GET /api/categories/icons': '200 200 200 200 200 200 200 200',
  'POST /api/categories': '401 403 403 403 403 403 201 401',
  'PATCH /api/categories/{id}': '401 403 403 403 403 403 200 401',
  'DELETE /api/categories/{id}': '401 403 403 403 403 403 200 401',
  'GET /api/listings/{id}': '401 200 200 200 200 200 200 401',
  'GET /api/listings/{id}/similar': '401 200 200 200 200 200 200 401',
  // Recently viewed cars by id (issue 32): whoever may see cars.
  'GET /api/listings/cards': '401 200 200 200 200 200 200 401',
  'PATCH /api/listings/{id}': '401 403 403 403 200 403 403 401',
  'PUT /api/listings/{id}': '401 403 403 403 200 403 403 401',
  'GET /api/advertised': '200 200 200 200 200 200 200 200',
  'GET /api/listings': '401 200 200 200 200 200 200 401',
  // A seller's profile (issue 32): whoever may see cars.
  'GET /api/sellers/{id}': '401 200 200 200 200 200 200 401',
  'GET /api/places': '200 200 200 200 200 200 200 200',
  // The seller's price guide (decision 032): anyone signed in; the small demo set fits none.
  'GET /api/price-guide': '401 404 404 404 404 404 404 401',
  // Decoding a VIN (decision 033): anyone signed in.
  'GET /api/vin/{vin}': '401 200 200 200 200 200 200 401',
  'PUT /api/saved-cars/{listingId}': '401 200 200 200 403 403 403 401',
  'DELETE /api/saved-cars/{listingId}': '401 200 200 200 403 403 403 401',
  'GET /api/saved-cars': '401 200 200 200 403 403 403 401',
  'POST /api/saved-searches': '401 200 200 200 403 403 403 401',
  'GET /api/saved-searches': '401 200 200 200 403 403 403 401',
  'PATCH /api/saved-searches/{id}': '401 200 200 404 403 403 403 401',
  'DELETE /api/saved-searches/{id}': '401 200 200 404 403 403 403 401',
  // Public (the mail's link); 400: access granted, the token is not one the server signed.
  'POST /api/unsubscribe': '400 400 400 400 400 400 400 400',
  'GET /api/booked': '401 200 200 403 403 403 200 401',
  'GET /api/booked/{id}': '401 200 200 404 200 404 200 401',
  // Only the buyer who paid has a receipt; to everyone else it does not exist.
  'GET /api/booked/{id}/receipt': '401 200 200 404 404 404 404 401',
  'POST /api/booked/{id}/cancel': '401 200 200 404 403 404 403 401',
  'POST /api/booked/{id}/handover': '401 200 200 404 403 404 403 401',
  'POST /api/booked/{id}/dispute': '401 200 200 404 403 404 403 401',
  'GET /api/disputes': '401 403 403 403 403 403 200 401',
  'POST /api/disputes/{id}/resolve': '401 403 403 403 403 403 200 401',
  // A seller's own money and payout account (issue 35); the platform's figures are the admins'.
  'GET /api/my/balance': '401 403 403 403 200 200 403 401',
  'GET /api/my/payouts': '401 403 403 403 200 200 403 401',
  'GET /api/my/payout-account': '401 403 403 403 200 200 403 401',
  'POST /api/my/payout-account': '401 403 403 403 200 200 403 401',
  'GET /api/admin/money': '401 403 403 403 403 403 200 401',
  'GET /api/bookedItem': '401 403 403 403 200 200 200 401',
  // 400 for another seller: access granted, the photo is not one they uploaded.
  'POST /api/product': '401 403 403 403 200 400 403 401',
  'GET /api/my/listings': '401 403 403 403 200 200 403 401',
  'GET /api/my/listings/counts': '401 403 403 403 200 200 403 401',
  'POST /api/listings/{id}/withdraw': '401 403 403 403 200 403 403 401',
  // A withdrawn car: to anyone but its seller (and admins, who may not change it) it does not exist.
  'POST /api/listings/{id}/relist': '401 403 403 403 200 404 403 401',
  'PUT /api/listings/{id}/advertise': '401 403 403 403 200 403 403 401',
  'DELETE /api/listings/{id}/advertise': '401 403 403 403 200 403 403 401',
  'GET /api/all/user': '401 403 403 403 403 403 200 401',
  'PUT /api/user/verify/{id}': '401 403 403 403 403 403 200 401',
  'DELETE /api/user/remove/{id}': '401 403 403 403 403 403 200 401',
  'GET /api/users/{id}/listings': '401 403 403 403 403 403 200 401',
  'GET /api/audit': '401 403 403 403 403 403 200 401',
  // Whole tables as CSV (decision 042): the administration's.
  'GET /api/admin/exports/users.csv': '401 403 403 403 403 403 200 401',
  'GET /api/admin/exports/cars.csv': '401 403 403 403 403 403 200 401',
  'GET /api/admin/exports/bookings.csv': '401 403 403 403 403 403 200 401',
  'GET /api/admin/exports/payouts.csv': '401 403 403 403 403 403 200 401',
  // Download my data (decision 042): anyone signed in, their own.
  'GET /api/my/data-export': '401 200 200 200 200 200 200 401',
  'POST /api/listings/{id}/remove': '401 403 403 403 403 403 200 401',
  'GET /api/stats': '401 200 200 200 200 200 200 401',
  // A car's stats: its seller's and admins'; another seller's car does not exist for them.
  'GET /api/my/listings/{id}/stats': '401 403 403 403 200 404 200 401',
  'GET /api/payments/config': '200 200 200 200 200 200 200 200',
  'POST /api/create-payment-intent': '401 200 200 404 403 404 403 401',
  // The bearer column's 409: the same buyer's cookie call just before holds another car.
  'POST /api/payments/hold': '401 200 409 404 403 404 403 401',
  // 400 for the buyer: access granted, the made-up transaction id refused.
  'POST /api/payments': '401 400 400 404 403 404 403 401',
  // Stands in for Stripe.js, which anyone holding a client secret may call; 402 is the card.
  'POST /api/payments/sandbox/confirm': '402 402 402 402 402 402 402 402',
  'POST /api/uploads': '401 403 403 403 200 200 403 401',
  'POST /api/uploads/profile-photo': '401 200 200 200 200 200 200 401',
  // Adding a role the caller holds already; an administrator opens every page already.
  'POST /api/user/roles': '401 200 200 200 200 200 403 401',
  // better-auth's settings calls (test/api-calls.ts AUTH_ROUTES) read the session cookie alone,
  // as better-auth does: a bearer token does not reach them (401).
  'POST /api/auth/update-user': '401 200 401 200 200 200 200 401',
  // 400: access granted, the current password given is wrong (change-email asks for it too).
  'POST /api/auth/change-password': '401 400 401 400 400 400 400 401',
  'POST /api/auth/change-email': '401 400 401 400 400 400 400 401',
  // Public, as the link for a signed-out person; 409: that address is confirmed already.
  'POST /api/auth/send-verification-email': '200 200 200 200 409 200 409 200',
  // Public: the same answer whether the address has an account (or a deleted one) or not.
  'POST /api/auth/sign-in/magic-link': '200 200 200 200 200 200 200 200',
  'GET /api/auth/list-sessions': '401 200 401 200 200 200 200 401',
  'GET /api/auth/list-accounts': '401 200 401 200 200 200 200 401',
  // 404: the session is nobody's, as someone else's is answered.
  'POST /api/auth/revoke-session': '401 404 401 404 404 404 404 401',
  'POST /api/auth/revoke-other-sessions': '401 200 401 200 200 200 200 401',
  // 400: access granted, the password given is wrong; an administrator cannot delete itself.
  'POST /api/auth/delete-user': '401 400 401 400 400 400 403 401',
  // Conversations (issue 16): the buyer and the car's seller are its members; to anyone else it
  // does not exist, admins included until a member reports it.
  'POST /api/listings/{id}/messages': '401 200 200 200 403 403 403 401',
  'GET /api/conversations': '401 200 200 200 200 200 200 401',
  'GET /api/conversations/unread': '401 200 200 200 200 200 200 401',
  'GET /api/conversations/stream': '401 200 200 200 200 200 200 401',
  'GET /api/conversations/{id}': '401 200 200 404 200 404 404 401',
  'GET /api/conversations/{id}/messages': '401 200 200 404 200 404 404 401',
  'POST /api/conversations/{id}/messages': '401 200 200 404 200 404 404 401',
  'POST /api/conversations/{id}/read': '401 200 200 404 200 404 404 401',
  // Only the seller blocks; the buyer can see the conversation, so 403.
  'PUT /api/conversations/{id}/block': '401 403 403 404 200 404 404 401',
  'DELETE /api/conversations/{id}/block': '401 403 403 404 200 404 404 401',
  'POST /api/conversations/{id}/report': '401 200 200 404 200 404 404 401',
  'GET /api/reports': '401 403 403 403 403 403 200 401',
  'POST /api/reports/{id}/resolve': '401 403 403 403 403 403 200 401',
};
