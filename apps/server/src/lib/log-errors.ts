/**
 * Errors as the log writes them (decision 040): pino's fields (type, message, stack, the error's
 * own), without the values a failed statement was sent with. Drizzle's DrizzleQueryError puts
 * them in its message and its `params` (a sign-in token, a reset token, a password hash, an
 * address): the log keeps the SQL, which has placeholders, and the database's own error.
 */
export function errorForLog(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error) || depth > 5) return error;
  const own = error as Error & Record<string, unknown>;
  const failedQuery = typeof own.query === 'string' && 'params' in own;
  const message = failedQuery ? `Failed query: ${own.query as string}` : error.message;
  const logged: Record<string, unknown> = {
    type: error.constructor?.name ?? 'Error',
    message,
    stack: failedQuery ? `${error.name}: ${message}${stackFrames(error.stack)}` : error.stack,
  };
  for (const [key, value] of Object.entries(own)) {
    if (key in logged || (failedQuery && key === 'params')) continue;
    logged[key] = value instanceof Error ? errorForLog(value, depth + 1) : value;
  }
  if (error.cause !== undefined) logged.cause = errorForLog(error.cause, depth + 1);
  return logged;
}

/** A stack's frames, without its first line (which repeats the message). */
function stackFrames(stack: string | undefined): string {
  const at = stack?.indexOf('\n    at ') ?? -1;
  return stack && at >= 0 ? stack.slice(at) : '';
}

/** `errorForLog` as the logger's `err` serializer (an error in, pino's shape of one out). */
export const errorSerializer = (error: Error) =>
  errorForLog(error) as { [key: string]: unknown; type: string; message: string; stack: string };
