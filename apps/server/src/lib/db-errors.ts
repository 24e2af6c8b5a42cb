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
