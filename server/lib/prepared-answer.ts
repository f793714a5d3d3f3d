import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { preferredEncoding } from './encoding';

/**
 * The one way a much-read public answer is kept and sent (the public lists, pricing): prepared
 * once, then sent as bytes with an ETag and the client's compression.
 */
export interface PreparedAnswer {
  body: Buffer;
  br: Buffer | null;
  gzip: Buffer | null;
  etag: string;
}

/** Answers smaller than this are sent as they are: compressing them saves nothing. */
const COMPRESS_FROM_BYTES = 1024;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * An answer ready to send many times: its JSON text, brotli and gzip copies (for 1 KB and more),
 * and a weak ETag (a hash of the text, so changed data means a changed ETag; weak because the
 * compressed copies are the same answer in other bytes). `quality` is brotli's (gzip's level
 * follows it): 6 for answers kept a second, 9 for those kept a minute.
 */
export async function prepareAnswer(rows: unknown, quality = 6): Promise<PreparedAnswer> {
  const body = Buffer.from(JSON.stringify(rows));
  const large = body.length >= COMPRESS_FROM_BYTES;
  const [br, gz] = large
    ? await Promise.all([
        brotli(body, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          },
        }),
        gzip(body, { level: Math.min(9, quality) }),
      ])
    : [null, null];
  return { body, br, gzip: gz, etag: `W/"${createHash('sha1').update(body).digest('base64url')}"` };
}

/** If-None-Match holds this ETag (compared weakly, as RFC 9110 says for If-None-Match), or '*'. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

/** What to send for a prepared answer: 304 on a matching ETag, else the bytes the client accepts. */
export function preparedResponse(
  answer: PreparedAnswer,
  cacheControl: string,
  requestHeaders: { 'if-none-match'?: string; 'accept-encoding'?: string },
): { status: 200 | 304; headers: Record<string, string>; body: Buffer | null } {
  const headers: Record<string, string> = {
    'cache-control': cacheControl,
    etag: answer.etag,
    vary: 'Accept-Encoding',
  };
  if (etagMatches(requestHeaders['if-none-match'], answer.etag)) return { status: 304, headers, body: null };
  headers['content-type'] = 'application/json; charset=utf-8';
  const encoding = preferredEncoding(requestHeaders['accept-encoding']);
  const encoded = encoding === 'br' ? answer.br : encoding === 'gzip' ? answer.gzip : null;
  if (!encoded) return { status: 200, headers, body: answer.body };
  headers['content-encoding'] = encoding;
  return { status: 200, headers, body: encoded };
}

/** Sends a prepared answer through Fastify (the front door sends the same, lib/front-door.ts). */
export function sendPrepared(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: PreparedAnswer,
  cacheControl: string,
) {
  const { status, headers, body } = preparedResponse(answer, cacheControl, request.headers);
  reply.code(status).headers(headers);
  return body ? reply.send(body) : reply.send();
}
