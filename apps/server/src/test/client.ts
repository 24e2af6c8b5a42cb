import http from 'node:http';
import type { ApiErrorBody } from '@carmarket/shared';

/** What a client needs of a server: where it is. */
export interface Server {
  baseUrl: string;
}

/** A browser-like client: keeps cookies and sends the Origin header, as a page would. */
export class TestClient {
  private cookies = new Map<string, string>();
  bearer: string | undefined;

  constructor(readonly app: Server) {}

  async request(pathname: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('origin', this.app.baseUrl);
    if (this.cookies.size > 0) {
      headers.set(
        'cookie',
        [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
      );
    }
    if (this.bearer) headers.set('authorization', `Bearer ${this.bearer}`);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(init.json);
    }
    const response = await fetch(`${this.app.baseUrl}${pathname}`, {
      ...init,
      headers,
      body,
      redirect: 'manual',
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const index = pair!.indexOf('=');
      const name = pair!.slice(0, index).trim();
      const value = pair!.slice(index + 1).trim();
      const expired = attributes.some((a) => /max-age=0\b/i.test(a.trim()));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  get(pathname: string) {
    return this.request(pathname);
  }

  post(pathname: string, json?: unknown) {
    return this.request(pathname, { method: 'POST', json: json ?? {} });
  }

  /** The Cookie header this client sends, for requests made by hand (rawRequest). */
  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  hasSession(): boolean {
    return [...this.cookies.keys()].some((name) => name.endsWith('session_token'));
  }
}

export interface NewAccount {
  name: string;
  email: string;
  password: string;
  role?: 'Buyer' | 'Seller';
}

let counter = 0;
/** A unique account for a test, registered through the same calls the register page makes. */
export async function register(
  app: Server,
  overrides: Partial<NewAccount> = {},
): Promise<TestClient & { account: NewAccount }> {
  counter += 1;
  const account: NewAccount = {
    name: `Test Person ${counter}`,
    email: `person${counter}.${Date.now()}@example.com`,
    password: 'correct horse battery',
    role: 'Buyer',
    ...overrides,
  };
  const client = new TestClient(app);
  const signUp = await client.post('/api/auth/sign-up/email', {
    name: account.name,
    email: account.email,
    password: account.password,
  });
  if (signUp.status !== 200)
    throw new Error(`sign-up failed: ${signUp.status} ${await signUp.text()}`);
  if (account.role) {
    const role = await client.post('/api/user', {
      name: account.name,
      email: account.email,
      role: account.role,
    });
    if (role.status !== 200) throw new Error(`role failed: ${role.status} ${await role.text()}`);
  }
  return Object.assign(client, { account });
}

export const DEMO_PASSWORD = 'demo-drive-2026';

/** Signs in as one of the seeded demo accounts. */
export async function signInAs(
  app: Server,
  email: string,
  password = DEMO_PASSWORD,
): Promise<TestClient> {
  const client = new TestClient(app);
  const response = await client.post('/api/auth/sign-in/email', { email, password });
  if (response.status !== 200)
    throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return client;
}

/** The `{error}` of an API answer. */
export async function errorOf(response: Response) {
  return (
    (await response.json()) as {
      error: ApiErrorBody['error'];
    }
  ).error;
}

export const codeOf = async (response: Response) => (await errorOf(response)).code;

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/**
 * One request sent exactly as written: `fetch` would normalise `./` and `../` out of the path,
 * and always sends Accept-Encoding; this sends only what it is given.
 */
export function rawRequest(
  baseUrl: string,
  method: string,
  pathname: string,
  options: { headers?: Record<string, string>; json?: unknown; body?: string } = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = { ...options.headers };
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] = 'application/json';
  }
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const request = http.request(`${baseUrl}/`, { method, path: pathname, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    request.on('error', reject);
    request.end(body);
  });
}
