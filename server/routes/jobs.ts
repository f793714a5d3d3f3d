import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BindJobOpeningsQuery, JobOpeningRows, JobTypeRows } from '../../src/api/contract/jobs';
import { listJobTypes, listOpenings } from '../db/jobs.repo';
import { preferredEncoding } from '../plugins/web';

/**
 * Public job reads (spec section 7): GET /api/bind-job-openings and GET /api/bind-job-types.
 * Writes (POST manage-job-openings) live in routes/jobs-admin.ts.
 *
 * Openings change in the admin and must show at once, so answers are not cached on the server;
 * they are sent with `Cache-Control: no-cache` and a weak ETag (a repeat visit revalidates and gets
 * 304), and compressed (brotli or gzip) from 1 KB, since rows carry four rich-text fields.
 */
const COMPRESS_FROM_BYTES = 1024;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

async function sendRows(request: FastifyRequest, reply: FastifyReply, rows: unknown) {
  const body = Buffer.from(JSON.stringify(rows));
  const etag = `W/"${createHash('sha1').update(body).digest('base64url')}"`;
  reply.header('cache-control', 'no-cache').header('etag', etag).header('vary', 'Accept-Encoding');
  const match = request.headers['if-none-match'];
  if (match && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag.slice(2))) {
    return reply.code(304).send();
  }
  reply.type('application/json; charset=utf-8');
  const encoding =
    body.length >= COMPRESS_FROM_BYTES ? preferredEncoding(request.headers['accept-encoding']) : 'identity';
  if (encoding === 'br') {
    const br = await brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } });
    return reply.header('content-encoding', 'br').send(br);
  }
  if (encoding === 'gzip')
    return reply.header('content-encoding', 'gzip').send(await gzip(body, { level: 6 }));
  return reply.send(body);
}

const jobs: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/bind-job-openings',
    { schema: { querystring: BindJobOpeningsQuery, response: { 200: JobOpeningRows } } },
    async (request, reply) => sendRows(request, reply, await listOpenings(app.db, request.query)),
  );

  app.get('/bind-job-types', { schema: { response: { 200: JobTypeRows } } }, async (request, reply) =>
    sendRows(request, reply, await listJobTypes(app.db)),
  );
};

export default jobs;
