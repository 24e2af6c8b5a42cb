import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Role } from '@carmarket/shared';
import { unauthenticated } from '../lib/errors.ts';

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  role: Role | null;
  verified: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in person, or null. */
    user: SessionUser | null;
  }
}

/**
 * Resolves who is calling. Accounts (sign-in, sessions, bearer tokens) arrive with the accounts
 * work; until then nobody is signed in, so every signed-in-only route answers 401.
 */
export const authPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('user', null);
});

/** preHandler for routes that need a signed-in user. */
export async function requireUser(request: FastifyRequest): Promise<void> {
  if (!request.user) throw unauthenticated();
}
