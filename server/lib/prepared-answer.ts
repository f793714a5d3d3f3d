import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { preferredEncoding } from '../plugins/web';

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

/** Sends a prepared answer: its ETag (304 on a match), compressed as the client accepts. */
export function sendPrepared(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: PreparedAnswer,
  cacheControl: string,
) {
  reply.header('cache-control', cacheControl).header('etag', answer.etag).header('vary', 'Accept-Encoding');
  if (etagMatches(request.headers['if-none-match'], answer.etag)) return reply.code(304).send();
  reply.type('application/json; charset=utf-8');
  const encoding = preferredEncoding(request.headers['accept-encoding']);
  const encoded = encoding === 'br' ? answer.br : encoding === 'gzip' ? answer.gzip : null;
  if (encoded) return reply.header('content-encoding', encoding).send(encoded);
  return reply.send(answer.body);
}
