import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { BUILT_IN_ROLES } from '../contract/auth';
import { dataDirDenied } from './lib/data-dir';

/**
 * Every setting of the server, read from the environment . This file is the
 * one place for settings: a new setting gets a line in `Settings` below and in server/README.md.
 */

export type Env = Record<string, string | undefined>;

/** Thrown for a bad setting; its message names the setting. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const wholeNumber = (min: number, max: number) =>
  z
    .string()
    .refine((s) => /^\d+$/.test(s) && Number(s) >= min && Number(s) <= max, {
      error: `expected a whole number between ${min} and ${max}`,
    })
    .transform(Number);

const boolean = z
  .enum(['true', 'false'], { error: 'expected "true" or "false"' })
  .transform((s) => s === 'true');

const url = (protocols: string[], hint = '') =>
  z.string().refine(
    (s) => {
      try {
        return protocols.includes(new URL(s).protocol);
      } catch {
        return false;
      }
    },
    { error: `expected an address starting with ${protocols.map((p) => `${p}//`).join(' or ')}${hint}` },
  );

const isCidr = (s: string) => {
  const [ip, bits, ...rest] = s.split('/');
  const family = isIP(ip);
  if (!family || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
};

/** REQUIRE_SECOND_FACTOR: built-in role names, comma-separated; empty for none. */
const builtInRoleList = z.string().transform((s, ctx): ('owner' | 'editor' | 'recruiter')[] => {
  const names = s
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean);
  const unknown = names.filter((n) => !Object.hasOwn(BUILT_IN_ROLES, n));
  if (unknown.length > 0)
    ctx.addIssue({
      code: 'custom',
      message: `expected built-in roles (${Object.keys(BUILT_IN_ROLES).join(', ')}) separated by commas, or nothing; not ${unknown.join(', ')}`,
    });
  return [...new Set(names)] as ('owner' | 'editor' | 'recruiter')[];
});

/** TRUST_PROXY: "true"/"false", a hop count, or a comma-separated list of addresses/CIDRs. */
const trustProxy = z.string().transform((s, ctx): boolean | number | string[] => {
  if (s === 'true' || s === 'false') return s === 'true';
  if (/^\d+$/.test(s)) return Number(s);
  const list = s
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (list.length > 0 && list.every(isCidr)) return list;
  ctx.addIssue({
    code: 'custom',
    message:
      'expected "true", "false", a number of hops, or a comma-separated list of IP addresses or CIDR ranges',
  });
  return z.NEVER;
});

/** Where the embedded database, files and generated secret live unless DATA_DIR says otherwise. */
export const DEFAULT_DATA_DIR = './data';

const Settings = z.object({
  NODE_ENV: z.string().default('development'),
  PORT: wholeNumber(1, 65535).default(8080),
  HOST: z.string().optional(),
  DATA_DIR: z.string().default(DEFAULT_DATA_DIR),
  DATABASE_URL: url(
    ['postgres:', 'postgresql:'],
    ' (leave it unset for the embedded SQLite database)',
  ).optional(),
  REDIS_URL: url(['redis:', 'rediss:']).optional(),
  /** Prefix of every key this site writes to Redis (several sites may share one Redis). */
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[\w:.-]{1,64}$/, { error: 'expected up to 64 letters, digits, _ : . or -' })
    .default('manna:'),
  S3_ENDPOINT: url(['http:', 'https:']).optional(),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  PUBLIC_URL: url(['http:', 'https:']).optional(),
  SECRET: z.string().min(32, { error: 'expected at least 32 characters' }).optional(),
  TRUST_PROXY: trustProxy.default(false),
  /**
   * The built-in roles whose members sign in with a second factor on a new install (read once,
   * when the roles are made; afterwards owners decide per role in the back office). Empty: none.
   */
  REQUIRE_SECOND_FACTOR: builtInRoleList.default(['owner']),
  /** Turns on GET /metrics (Prometheus text), which then requires `Authorization: Bearer <it>`. */
  METRICS_TOKEN: z.string().min(16, { error: 'expected at least 16 characters' }).optional(),
  GEO_COUNTRY_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]+$/, { error: 'expected an HTTP header name' })
    .transform((s) => s.toLowerCase())
    .optional(),
  ADMIN_EMAIL: z.email({ error: 'expected an email address' }).optional(),
  ADMIN_PASSWORD: z.string().optional(),
  APPLICATION_RETENTION_DAYS: wholeNumber(1, 36500).default(365),
  /** Where the server takes a daily backup (server/lib/backup.ts); unset: no scheduled backups. */
  BACKUP_DIR: z.string().min(1).optional(),
  /** How many daily backups BACKUP_DIR keeps; older ones are removed after each new one. */
  BACKUP_KEEP: wholeNumber(1, 3650).default(14),
  /** How many revisions of each blog post and job opening are kept (older ones are pruned at each save). */
  REVISION_KEEP: wholeNumber(1, 10_000).default(50),
  /** Contact messages older than this are purged daily, like applications. */
  MESSAGE_RETENTION_DAYS: wholeNumber(1, 36500).default(730),
  /** Page views are kept this many days, then only their daily figures (docs/decisions/028). */
  ANALYTICS_RAW_DAYS: wholeNumber(1, 3650).default(30),
  /** Page views one client may send a minute (the beacon, POST /api/views). */
  ANALYTICS_VIEWS_PER_MIN: wholeNumber(1, 1_000_000).default(120),
  /** A one-time password (new user, reset) stops working after this many hours. */
  ONE_TIME_PASSWORD_HOURS: wholeNumber(1, 24 * 90).default(72),
  /** How long start-up waits for an unreachable database before giving up. */
  DATABASE_WAIT_SECONDS: wholeNumber(0, 3600).default(30),
  /** Stored files no row references are removed at start once this old (lib/orphan-files.ts). */
  ORPHAN_MIN_AGE_SECONDS: wholeNumber(0, 86_400 * 30).default(600),
  /** How long a public list answer (blog, openings) is reused; 0 turns the reuse off. */
  PUBLIC_READ_CACHE_MS: wholeNumber(0, 60_000).default(1000),
  RATE_LIMIT_PUBLIC_PER_MIN: wholeNumber(1, 1_000_000).default(30),
  RATE_LIMIT_LOGIN_FAILURES: wholeNumber(1, 1_000_000).default(5),
  /** Pages rendered on request (blog permalinks) per client per minute. */
  RATE_LIMIT_PAGE_RENDERS_PER_MIN: wholeNumber(1, 1_000_000).default(120),
  /**
   * Where mail goes: `smtp://user:pass@host:587` (STARTTLS when the server offers it; add
   * `?requireTLS=true` to insist) or `smtps://...:465`. Unset: mail waits in the outbox, shown in
   * the back office.
   */
  SMTP_URL: url(['smtp:', 'smtps:']).optional(),
  /** The From of every mail: `Manna <no-reply@example.com>` or a bare address. */
  MAIL_FROM: z
    .string()
    .refine(
      (s) => !/[\r\n]/.test(s) && /^(?:[^<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/.test(s.trim()),
      {
        error: 'expected an address, or a name and an address as in "Manna <no-reply@example.com>"',
      },
    )
    .optional(),
  /**
   * The Reply-To of the acknowledgment a contact form's writer gets, and of the one a candidate
   * gets: the mailbox a person reads, so an answer to "we received your message" reaches someone.
   * HIRING_REPLY_TO is also the Reply-To of every mail staff write to a candidate.
   * Unset: no Reply-To (an answer goes to MAIL_FROM).
   */
  CONTACT_REPLY_TO: z.email({ error: 'expected an email address' }).optional(),
  HIRING_REPLY_TO: z.email({ error: 'expected an email address' }).optional(),
  /**
   * How long a process holds a mail it is sending; a process killed mid-send leaves it to another
   * (or to its restart) after this. Each SMTP step times out within a third of it.
   */
  MAIL_LEASE_SECONDS: wholeNumber(3, 3600).default(120),
  /** The first wait after a failed send; each further wait doubles, up to an hour. */
  MAIL_RETRY_SECONDS: wholeNumber(1, 3600).default(30),
  /** The first wait after a webhook delivery failed; each further wait doubles, up to an hour. */
  WEBHOOK_RETRY_SECONDS: wholeNumber(1, 3600).default(30),
  /**
   * Webhooks may go to private, loopback and link-local addresses (a receiver on this machine or
   * network). Off: only public addresses, checked when an endpoint is saved and at each delivery.
   */
  WEBHOOKS_ALLOW_PRIVATE: boolean.default(false),
  /**
   * A request whose headers and body have not all arrived after this long is answered 408 and its
   * connection closed (a client that trickles a body would otherwise hold a connection forever).
   */
  REQUEST_TIMEOUT_SECONDS: wholeNumber(1, 3600).default(120),
  /** A request whose headers have not all arrived after this long is answered 408. */
  HEADERS_TIMEOUT_SECONDS: wholeNumber(1, 3600).default(20),
  /**
   * An idle keep-alive connection is closed after this long. Behind a proxy or load balancer it
   * must be longer than the proxy's own idle timeout (60 s on most), or the proxy may send a request
   * on a connection the server is closing and answer 502: Fastify's 72 s is kept.
   */
  KEEP_ALIVE_TIMEOUT_SECONDS: wholeNumber(1, 600).default(72),
  /**
   * Open connections one process holds at most; beyond it a few more are let in for /api/health
   * and /api/ready only (lib/connection-limits.ts). Default: the open-files limit less 256.
   */
  MAX_CONNECTIONS: wholeNumber(16, 1_000_000).optional(),
  /** Busy connections (a request on its way or waiting for its answer) one client address may hold; idle keep-alive ones do not count (a trusted proxy's address aside). */
  MAX_CONNECTIONS_PER_CLIENT: wholeNumber(1, 1_000_000).default(128),
  SEED_DEMO: boolean.optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `expected one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  DIST_DIR: z.string().default('./dist'),
});

export type DatabaseSettings = { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string };

export type S3Settings = {
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
};

type Parsed = z.output<typeof Settings>;

export type Config = Omit<
  Parsed,
  'HOST' | 'PUBLIC_URL' | 'SECRET' | 'SEED_DEMO' | 'MAIL_FROM' | 'MAX_CONNECTIONS'
> & {
  MAX_CONNECTIONS: number;
  /** MAIL_FROM, or `Manna <no-reply@host of PUBLIC_URL>`. */
  MAIL_FROM: string;
  HOST: string;
  /** Absolute, no trailing slash. */
  PUBLIC_URL: string;
  SECRET: string;
  SEED_DEMO: boolean;
  /** Absolute paths. */
  DATA_DIR: string;
  DIST_DIR: string;
  isProduction: boolean;
  /** true when PUBLIC_URL is https: Secure cookies and HSTS. */
  isHttps: boolean;
  database: DatabaseSettings;
  /** undefined: files go to local disk under DATA_DIR. */
  s3: S3Settings | undefined;
};

/** Settings whose empty value is a choice, not "unset": REQUIRE_SECOND_FACTOR= requires none. */
const EMPTY_IS_A_VALUE = new Set(['REQUIRE_SECOND_FACTOR']);

/** Reads every setting; throws a ConfigError naming the setting on a bad value. */
export function loadConfig(env: Env = process.env): Config {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(Settings.shape)) {
    const value = env[key]?.trim();
    // an empty value counts as unset, but where empty says something ("no role")
    if (value || (value === '' && EMPTY_IS_A_VALUE.has(key))) raw[key] = value;
  }
  const result = Settings.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new ConfigError(`Invalid setting ${String(issue.path[0])}: ${issue.message}`);
  }
  const s = result.data;
  const isProduction = s.NODE_ENV === 'production';
  const fail = (name: string, message: string): never => {
    throw new ConfigError(`Invalid setting ${name}: ${message}`);
  };

  const DATA_DIR = path.resolve(s.DATA_DIR);
  const database: DatabaseSettings = s.DATABASE_URL
    ? { dialect: 'postgres', url: s.DATABASE_URL }
    : { dialect: 'sqlite', file: path.join(DATA_DIR, 'manna.sqlite') };

  const s3Keys = [
    'S3_ENDPOINT',
    'S3_BUCKET',
    'S3_REGION',
    'S3_ACCESS_KEY_ID',
    'S3_SECRET_ACCESS_KEY',
  ] as const;
  let s3: S3Settings | undefined;
  if (s3Keys.some((key) => s[key] !== undefined)) {
    if (!s.S3_BUCKET) fail('S3_BUCKET', 'required when any S3_ setting is set');
    if (!s.S3_ACCESS_KEY_ID !== !s.S3_SECRET_ACCESS_KEY) {
      fail(
        s.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID',
        'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together',
      );
    }
    s3 = {
      endpoint: s.S3_ENDPOINT,
      bucket: s.S3_BUCKET!,
      region: s.S3_REGION ?? 'us-east-1',
      accessKeyId: s.S3_ACCESS_KEY_ID,
      secretAccessKey: s.S3_SECRET_ACCESS_KEY,
    };
  }

  if (!s.ADMIN_EMAIL !== !s.ADMIN_PASSWORD) {
    fail(s.ADMIN_EMAIL ? 'ADMIN_PASSWORD' : 'ADMIN_EMAIL', 'ADMIN_EMAIL and ADMIN_PASSWORD go together');
  }

  const HOST = s.HOST ?? (isProduction ? '0.0.0.0' : '127.0.0.1');
  // In production the public address is said, never guessed, whatever HOST is: behind a reverse
  // proxy on the same machine (HOST a loopback address, the usual set-up) the server would
  // otherwise mail links to localhost and set cookies without Secure.
  if (isProduction && !s.PUBLIC_URL) {
    fail('PUBLIC_URL', 'required when NODE_ENV=production: the https:// address visitors use');
  }
  if (s.HEADERS_TIMEOUT_SECONDS > s.REQUEST_TIMEOUT_SECONDS) {
    fail('HEADERS_TIMEOUT_SECONDS', 'may not be longer than REQUEST_TIMEOUT_SECONDS');
  }
  const PUBLIC_URL = (s.PUBLIC_URL ?? `http://localhost:${s.PORT}`).replace(/\/+$/, '');
  // Production over plain http would drop Secure cookies and HSTS without a word: refuse it, but
  // for a loopback address (a local check of the production build never leaves the machine).
  if (isProduction && !PUBLIC_URL.startsWith('https:') && !isLoopback(new URL(PUBLIC_URL).hostname)) {
    fail(
      'PUBLIC_URL',
      'must be an https:// address when NODE_ENV=production (sessions need Secure cookies and HSTS)',
    );
  }

  let SECRET = s.SECRET;
  if (!SECRET) {
    if (isProduction)
      fail(
        'SECRET',
        'required when NODE_ENV=production (at least 32 characters, the same for every process of the site)',
      );
    SECRET = readOrCreateSecret(DATA_DIR);
  }

  return {
    ...s,
    HOST,
    MAX_CONNECTIONS: s.MAX_CONNECTIONS ?? defaultMaxConnections(),
    DATA_DIR,
    DIST_DIR: path.resolve(s.DIST_DIR),
    PUBLIC_URL,
    SECRET,
    MAIL_FROM: s.MAIL_FROM ?? `Manna <no-reply@${new URL(PUBLIC_URL).hostname}>`,
    // "On for a new embedded database": decided before the database file is created.
    SEED_DEMO: s.SEED_DEMO ?? (database.dialect === 'sqlite' && !fs.existsSync(database.file)),
    isProduction,
    isHttps: PUBLIC_URL.startsWith('https:'),
    database,
    s3,
  };
}

/** An address only this machine can reach: a URL's hostname (`[::1]`) or a HOST setting (`::1`). */
const isLoopback = (host: string) =>
  host === 'localhost' || host === '[::1]' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);

/** Descriptors kept free beyond MAX_CONNECTIONS: the database, files, logs, the health reserve. */
const RESERVED_DESCRIPTORS = 256;

/**
 * MAX_CONNECTIONS unless set: the process's open-files limit (soft, from /proc/self/limits; 1,024
 * where it cannot be read) less RESERVED_DESCRIPTORS, between 64 and 16,384.
 */
function defaultMaxConnections(): number {
  let limit = 1024;
  try {
    const line = /^Max open files\s+(\d+|unlimited)/m.exec(fs.readFileSync('/proc/self/limits', 'utf8'));
    if (line) limit = line[1] === 'unlimited' ? 1_048_576 : Number(line[1]);
  } catch {
    // not Linux: keep the common default
  }
  return Math.min(16_384, Math.max(64, limit - RESERVED_DESCRIPTORS));
}

/** The embedded default: one random secret kept in DATA_DIR/secret (mode 600), made on first start. */
function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret');
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    // 'wx' fails when the file exists, so two processes starting together share one secret
    fs.writeFileSync(file, randomBytes(32).toString('hex') + '\n', { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw dataDirDenied(err, dataDir, dataDir) ?? err;
  }
  const secret = fs.readFileSync(file, 'utf8').trim();
  if (secret.length < 32) {
    throw new ConfigError(
      `Invalid setting SECRET: ${file} holds fewer than 32 characters; delete it to make a new one`,
    );
  }
  return secret;
}
