// What other features may use of auth: who is signed in, what they hold, what the server offers
// (REQUIRE_VERIFIED_EMAIL), reading the session again, and forgetting it when the account goes.
// Everything else is auth's own.
export { useSession, sessionQueryKey, type Session } from './use-session';
export { rolesName } from './roles';
export { useSignInOptions } from './api/get-sign-in-options';
export { clearSignedInCache } from './api/end-session';
export { AddRoleCard } from './components/add-role-card';
export { requestPasswordReset } from './api/password-reset';
