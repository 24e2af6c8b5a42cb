/** Whether a database error is a unique violation of the named constraint or index. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const cause = findPgError(error);
  return cause?.code === '23505' && (!constraint || cause.constraint === constraint);
}

/**
 * Whether a database error is about a value the request sent (PostgreSQL's class 22, "data
 * exception": a NUL in text, a number out of range, a string too long, a malformed date).
 */
export function isInputError(error: unknown): boolean {
  return findPgError(error)?.code?.startsWith('22') ?? false;
}

/**
 * Whether a row the request points at went while it ran (23503, a foreign key violation): a
 * category deleted as a car is listed in it, say. Checked before the write, so only a race
 * meets it; the request can be made again against what is there now.
 */
export function isGoneReference(error: unknown): boolean {
  return findPgError(error)?.code === '23503';
}

/** Whether a statement gave up waiting for a lock after `lock_timeout` (55P03). */
export function isLockTimeout(error: unknown): boolean {
  return findPgError(error)?.code === '55P03';
}

/**
 * Whether the database connection was lost under a request (the server restarted, an operator
 * ended the session, the network dropped): the request can be tried again, so it is a 503.
 */
export function isConnectionLost(error: unknown): boolean {
  const code = findPgError(error)?.code;
  if (code && (code.startsWith('08') || ['57P01', '57P02', '57P03'].includes(code))) return true;
  for (let current: unknown = error, depth = 0; current && depth < 4; depth += 1) {
    const message = (current as { message?: unknown }).message;
    if (
      typeof message === 'string' &&
      /Connection terminated|ECONNRESET|ECONNREFUSED|Client has encountered a connection error/.test(
        message,
      )
    ) {
      return true;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Whether a statement was cancelled (57014): its statement_timeout fired, or an operator
 * cancelled it.
 */
export function isStatementCancelled(error: unknown): boolean {
  return findPgError(error)?.code === '57014';
}

function findPgError(error: unknown): { code?: string; constraint?: string } | undefined {
  // Drizzle wraps driver errors; PGlite and pg both expose `code` and `constraint`.
  for (
    let current = error as { code?: string; cause?: unknown } | undefined, depth = 0;
    current && depth < 4;
    depth += 1
  ) {
    if (typeof current.code === 'string' && /^[0-9A-Z]{5}$/.test(current.code)) {
      return current as { code?: string; constraint?: string };
    }
    current = current.cause as typeof current;
  }
  return undefined;
}
