import type { ErrorCode } from '@carmarket/shared';
import { messageForCode } from '@carmarket/shared';

/** An error the client may see: its status, code and message become `{error:{code,message}}`. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string = messageForCode(code),
    readonly extra: {
      field?: string;
      retryAfterSeconds?: number;
      reservedUntil?: string;
      bookingId?: string;
    } = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const unauthenticated = (message?: string) => new AppError(401, 'unauthenticated', message);
export const forbidden = (message?: string) => new AppError(403, 'forbidden', message);
export const notFound = (what = 'That') => new AppError(404, 'not-found', `${what} was not found.`);
export const conflict = (message: string) => new AppError(409, 'conflict', message);
