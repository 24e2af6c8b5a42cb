import { SignInMethodListSchema, type DeviceSession, type SignInMethod } from '@carmarket/shared';
import { describeUserAgent } from './user-agent.ts';

export interface SessionRow {
  id: string;
  userAgent: string | null;
  ipAddress: string | null;
  createdAt: Date;
  lastSeenAt: Date;
}

/** One signed-in device; its token never leaves the server (a session's token is the session). */
export function presentDeviceSession(row: SessionRow, currentId: string): DeviceSession {
  return {
    id: row.id,
    current: row.id === currentId,
    ...describeUserAgent(row.userAgent),
    ipAddress: row.ipAddress || null,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: (row.lastSeenAt > row.createdAt ? row.lastSeenAt : row.createdAt).toISOString(),
  };
}

/**
 * better-auth's list of the ways a person signs in, as the ways only: no provider's account id
 * or token leaves the server.
 */
export function presentSignInMethods(
  listed: Array<{ providerId: string; createdAt: string | Date }>,
): SignInMethod[] {
  return SignInMethodListSchema.parse(
    listed.map((entry) => ({
      provider: entry.providerId,
      createdAt: new Date(entry.createdAt).toISOString(),
    })),
  );
}
