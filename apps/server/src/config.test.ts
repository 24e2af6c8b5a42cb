import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration', () => {
  it('runs with no variables at all, on the embedded database', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.dataDir).toMatch(/data$/);
    expect(config.SEED_DEMO).toBe(true);
    expect(config.CURRENCY).toBe('USD');
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://localhost/db' }, 'DATABASE_URL'],
    [{ CURRENCY: 'dollars' }, 'CURRENCY'],
    [{ SEED_DEMO: 'maybe' }, 'SEED_DEMO'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    // Timers past 2^31 ms (24.8 days) overflow Node's, which then fire at once.
    [{ VIN_DECODER_IDLE_MINUTES: '40000' }, 'VIN_DECODER_IDLE_MINUTES'],
    [{ VIN_DECODE_INTERVAL_SECONDS: '2200000' }, 'VIN_DECODE_INTERVAL_SECONDS'],
    [{ PAYOUT_SWEEP_SECONDS: '2200000' }, 'PAYOUT_SWEEP_SECONDS'],
    [{ PAYMENT_SWEEP_SECONDS: '2200000' }, 'PAYMENT_SWEEP_SECONDS'],
    [{ CLEANUP_INTERVAL_MINUTES: '40000' }, 'CLEANUP_INTERVAL_MINUTES'],
    [{ VIEW_FLUSH_SECONDS: '2200000' }, 'VIEW_FLUSH_SECONDS'],
    [{ ALERT_INTERVAL_MS: '2200000000' }, 'ALERT_INTERVAL_MS'],
    [{ MESSAGE_MAIL_DELAY_MINUTES: '40000' }, 'MESSAGE_MAIL_DELAY_MINUTES'],
    [{ NODE_ENV: 'production', PUBLIC_URL: 'https://cars.example' }, 'BETTER_AUTH_SECRET'],
    [{ NODE_ENV: 'production', BETTER_AUTH_SECRET: 'x'.repeat(40) }, 'PUBLIC_URL'],
  ])('stops start-up on a bad value and names the variable (%o)', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`\\b${name}\\b`));
  });

  it('reads TRUST_PROXY as none, a hop count, or the proxies (decision 039)', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, loopback,::1' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      'loopback',
      '::1',
    ]);
    for (const bad of ['nginx', '10.0.0.0/40', '1.2.3.4/8/9', '99']) {
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(/TRUST_PROXY/);
    }
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' }).PORT).toBe(3000);
  });

  it('marks HTTPS deployments as secure', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://cars.example' }).secure).toBe(true);
    expect(loadConfig({ PUBLIC_URL: 'http://localhost:3000' }).secure).toBe(false);
  });
});
