// Setup shared by the my-account tests (settings, settings-devices).
import { TestClient } from '../../test/client.ts';

/** What `GET /api/auth/get-session` tells the web app about the person signed in. */
export type SessionAnswer = {
  user: {
    name: string;
    email: string;
    emailVerified: boolean;
    phone: string | null;
    image: string | null;
    roles: string[];
  };
  session: { id: string };
} | null;

export const whoIs = async (client: TestClient) =>
  (await (await client.get('/api/auth/get-session')).json()) as SessionAnswer;

/** A bearer token for the client's session, as the web app keeps one (GET /api/jwt). */
export async function bearerOf(client: TestClient & { account: { email: string } }) {
  const answer = await client.get(`/api/jwt?email=${encodeURIComponent(client.account.email)}`);
  const bearer = new TestClient(client.app);
  bearer.bearer = ((await answer.json()) as { accessToken: string }).accessToken;
  return bearer;
}
