// No zod here: the web app imports these without pulling in the schema library.

/**
 * Every error the API answers with. The auth codes are the spec's client codes (section 8), so the
 * web can show one plain message per code.
 */
export const ERROR_CODES = [
  'bad-request',
  'validation-failed',
  'unauthenticated',
  'forbidden',
  'not-found',
  'conflict',
  'payload-too-large',
  'unsupported-media-type',
  'internal',
  'unavailable',
  'wrong-password',
  'user-not-found',
  'email-already-in-use',
  'user-disabled',
  'too-many-requests',
  'expired-action-code',
  'invalid-action-code',
  'requires-recent-login',
  'invalid-user-token',
  'user-token-expired',
  'invalid-email',
  'weak-password',
  'admin-restricted-operation',
  'network-request-failed',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Plain words for each code, for pages that have nothing more specific to say. */
export const ERROR_MESSAGES: Record<ErrorCode, string> = {
  'bad-request': 'The request could not be understood.',
  'validation-failed': 'Some fields need your attention.',
  unauthenticated: 'Please sign in to continue.',
  forbidden: 'Your account cannot do this.',
  'not-found': 'We could not find that.',
  conflict: 'That conflicts with something that already exists.',
  'payload-too-large': 'That file or request is too large.',
  'unsupported-media-type': 'That type of file is not accepted.',
  internal: 'Something went wrong on our side. Please try again.',
  unavailable: 'The service is starting or busy. Please try again shortly.',
  'wrong-password': 'That email and password do not match an account.',
  'user-not-found': 'That email and password do not match an account.',
  'email-already-in-use': 'An account with this email already exists. Try signing in.',
  'user-disabled': 'This account has been disabled.',
  'too-many-requests': 'Too many attempts. Please wait a moment and try again.',
  'expired-action-code': 'This link has expired. Please ask for a new one.',
  'invalid-action-code': 'This link is not valid. Please ask for a new one.',
  'requires-recent-login': 'Please sign in again to do this.',
  'invalid-user-token': 'Your session is no longer valid. Please sign in again.',
  'user-token-expired': 'Your session has expired. Please sign in again.',
  'invalid-email': 'Please enter a valid email address.',
  'weak-password': 'Please choose a stronger password.',
  'admin-restricted-operation': 'Only an administrator can do this.',
  'network-request-failed': 'We could not reach the server. Check your connection and try again.',
};

export function messageForCode(code: string): string {
  return (ERROR_MESSAGES as Record<string, string>)[code] ?? ERROR_MESSAGES.internal;
}
