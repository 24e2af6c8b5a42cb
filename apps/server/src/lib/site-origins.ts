import type { Config } from '../config.ts';

/**
 * The site's own origin: PUBLIC_URL, or this machine's loopback address on the port the server
 * listens on. It is fixed at start-up and never read from a request's Host header, which anyone
 * can set; pages served at the loopback names (and the dev server, outside production) are trusted.
 */
export function siteOrigins(config: Config, port: () => number) {
  const siteOrigin = () =>
    config.PUBLIC_URL ? new URL(config.PUBLIC_URL).origin : `http://localhost:${port()}`;
  const trustedOrigins = () => {
    const origins = [siteOrigin()];
    if (!config.PUBLIC_URL) origins.push(`http://127.0.0.1:${port()}`, `http://[::1]:${port()}`);
    if (config.NODE_ENV !== 'production') {
      origins.push('http://localhost:5173', 'http://127.0.0.1:5173');
    }
    return origins;
  };
  return { siteOrigin, trustedOrigins };
}
