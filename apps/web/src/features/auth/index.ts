// What other features may use of auth: who is signed in. Everything else is auth's own.
export { useSession, type Session } from './use-session';
