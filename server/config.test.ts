// @vitest-environment node
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'manna-config-'));
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const load = (env: Record<string, string> = {}) => loadConfig({ DATA_DIR: dataDir, ...env });

describe('loadConfig', () => {
  it('uses the documented defaults in development', () => {
    const config = load();
    expect(config).toMatchObject({
      PORT: 8080,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: 'http://localhost:8080',
      TRUST_PROXY: false,
      APPLICATION_RETENTION_DAYS: 365,
      RATE_LIMIT_PUBLIC_PER_MIN: 30,
      RATE_LIMIT_LOGIN_FAILURES: 5,
      LOG_LEVEL: 'info',
      DIST_DIR: path.resolve('dist'),
      isProduction: false,
      isHttps: false,
      s3: undefined,
      database: { dialect: 'sqlite', file: path.join(dataDir, 'manna.sqlite') },
    });
  });

  it.each([['0'], ['65536'], ['eighty'], ['80.5'], ['-1']])(
    'refuses PORT=%s with a message naming PORT',
    (port) => {
      expect(() => load({ PORT: port })).toThrow(
        new ConfigError('Invalid setting PORT: expected a whole number between 1 and 65535'),
      );
    },
  );

  it.each([
    ['DATABASE_URL', 'mysql://db/manna'],
    ['LOG_LEVEL', 'loud'],
    ['SEED_DEMO', 'yes'],
    ['TRUST_PROXY', 'the office'],
    ['PUBLIC_URL', 'example.com'],
    ['REDIS_URL', 'http://cache'],
    ['ADMIN_EMAIL', 'not-an-email'],
    ['APPLICATION_RETENTION_DAYS', '0'],
    ['RATE_LIMIT_PUBLIC_PER_MIN', 'many'],
    ['SECRET', 'short'],
  ])('refuses a bad %s with a message naming it', (name, value) => {
    expect(() => load({ [name]: value })).toThrow(new RegExp(`^Invalid setting ${name}: `));
  });

  it('treats an empty value as unset', () => {
    expect(load({ PORT: '', DATABASE_URL: ' ' })).toMatchObject({
      PORT: 8080,
      database: { dialect: 'sqlite' },
    });
  });

  it('listens on every interface and requires SECRET in production', () => {
    expect(() => load({ NODE_ENV: 'production', PUBLIC_URL: 'https://manna.example' })).toThrow(
      /^Invalid setting SECRET: required when NODE_ENV=production/,
    );
    const config = load({
      NODE_ENV: 'production',
      SECRET: 'x'.repeat(32),
      PUBLIC_URL: 'https://manna.example',
    });
    expect(config).toMatchObject({ HOST: '0.0.0.0', isProduction: true, SECRET: 'x'.repeat(32) });
  });

  it('requires PUBLIC_URL in production, also when it listens on loopback only behind a proxy', () => {
    const prod = { NODE_ENV: 'production', SECRET: 'x'.repeat(32) };
    for (const HOST of [undefined, '0.0.0.0', '127.0.0.1', '::1']) {
      expect(() => load({ ...prod, ...(HOST && { HOST }) }), String(HOST)).toThrow(
        /^Invalid setting PUBLIC_URL: required when NODE_ENV=production: the https:\/\/ address visitors use/,
      );
    }
    // said, it may still be a loopback http address for a local check of the build
    expect(load({ ...prod, HOST: '127.0.0.1', PUBLIC_URL: 'http://127.0.0.1:8080' }).PUBLIC_URL).toBe(
      'http://127.0.0.1:8080',
    );
    expect(load({ NODE_ENV: 'development' }).PUBLIC_URL).toBe('http://localhost:8080');
  });

  it('bounds how long a client may take, and the connections it may hold', () => {
    expect(load({})).toMatchObject({ REQUEST_TIMEOUT_SECONDS: 120, HEADERS_TIMEOUT_SECONDS: 20 });
    expect(load({}).MAX_CONNECTIONS).toBeGreaterThanOrEqual(64);
    expect(() => load({ REQUEST_TIMEOUT_SECONDS: '10', HEADERS_TIMEOUT_SECONDS: '20' })).toThrow(
      /^Invalid setting HEADERS_TIMEOUT_SECONDS/,
    );
  });

  it('refuses production without an https PUBLIC_URL, but for a loopback check of the build', () => {
    const prod = { NODE_ENV: 'production', SECRET: 'x'.repeat(32) };
    expect(() => load({ ...prod, PUBLIC_URL: 'http://manna.example' })).toThrow(
      /^Invalid setting PUBLIC_URL: must be an https:\/\/ address when NODE_ENV=production/,
    );
    expect(load({ ...prod, PUBLIC_URL: 'https://manna.example' }).isHttps).toBe(true);
    expect(load({ ...prod, PUBLIC_URL: 'http://127.0.0.1:8080' }).isHttps).toBe(false);
    expect(load({ ...prod, PUBLIC_URL: 'http://localhost:8080' }).isHttps).toBe(false);
  });

  it('reads the retention of messages and the life of one-time passwords', () => {
    expect(load()).toMatchObject({ MESSAGE_RETENTION_DAYS: 730, ONE_TIME_PASSWORD_HOURS: 72 });
    expect(load({ ONE_TIME_PASSWORD_HOURS: '1' }).ONE_TIME_PASSWORD_HOURS).toBe(1);
    expect(() => load({ MESSAGE_RETENTION_DAYS: '0' })).toThrow(/MESSAGE_RETENTION_DAYS/);
  });

  it('generates a secret once in DATA_DIR/secret with mode 600 and keeps it', () => {
    const first = load().SECRET;
    const file = path.join(dataDir, 'secret');
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(load().SECRET).toBe(first);
  });

  it('chooses PostgreSQL for a postgres:// DATABASE_URL', () => {
    const url = 'postgres://manna@db.internal:5432/manna';
    expect(load({ DATABASE_URL: url }).database).toEqual({ dialect: 'postgres', url });
  });

  it('turns demo seeding on only for a new embedded database unless SEED_DEMO says otherwise', () => {
    expect(load().SEED_DEMO).toBe(true);
    expect(load({ SEED_DEMO: 'false' }).SEED_DEMO).toBe(false);
    expect(load({ DATABASE_URL: 'postgres://db/manna' }).SEED_DEMO).toBe(false);
    fs.writeFileSync(path.join(dataDir, 'manna.sqlite'), '');
    expect(load().SEED_DEMO).toBe(false);
    expect(load({ SEED_DEMO: 'true' }).SEED_DEMO).toBe(true);
  });

  it('reads TRUST_PROXY as a switch, a hop count or a list of addresses', () => {
    expect(load({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(load({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(load({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1 ,::1' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
    ]);
  });

  it('strips the trailing slash of PUBLIC_URL and knows when it is https', () => {
    expect(load({ PUBLIC_URL: 'https://manna.example/' })).toMatchObject({
      PUBLIC_URL: 'https://manna.example',
      isHttps: true,
    });
  });

  it('wants S3_BUCKET with any S3 setting, and both S3 keys or neither', () => {
    expect(() => load({ S3_REGION: 'eu-west-1' })).toThrow(/^Invalid setting S3_BUCKET: /);
    expect(() => load({ S3_BUCKET: 'cvs', S3_ACCESS_KEY_ID: 'key' })).toThrow(
      /^Invalid setting S3_SECRET_ACCESS_KEY: /,
    );
    expect(load({ S3_BUCKET: 'cvs', S3_ENDPOINT: 'http://127.0.0.1:4568' }).s3).toEqual({
      bucket: 'cvs',
      endpoint: 'http://127.0.0.1:4568',
      region: 'us-east-1',
      accessKeyId: undefined,
      secretAccessKey: undefined,
    });
  });

  it('wants ADMIN_EMAIL and ADMIN_PASSWORD together', () => {
    expect(() => load({ ADMIN_EMAIL: 'owner@manna.example' })).toThrow(/^Invalid setting ADMIN_PASSWORD: /);
  });
});
