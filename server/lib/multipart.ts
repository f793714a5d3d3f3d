import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../http-error';

/**
 * The one multipart reader of the upload routes (applications with a CV, blog posts with an
 * image): the content-type guard, every size limit, the parser's errors as client errors, and how
 * a refused upload ends. A route describes its form (`UploadForm`) and calls `uploads(app, form)`
 * once in its plugin; it gets the `onRequest` guard and `read(request, receiveFile)`.
 */
export interface UploadForm {
  /** The one file field (`resume`, `featured_image`). */
  fileField: string;
  /** Text fields that are kept; any other is ignored. */
  fieldNames: ReadonlySet<string>;
  /** The largest file. */
  fileMaxBytes: number;
  /** The most text fields may take before the file starts (a field's value may be fieldMaxBytes). */
  fieldsBudgetBytes: number;
  fieldMaxBytes: number;
  /** At most this many text parts. */
  maxFields: number;
  /** What the route answers, in its own words. */
  messages: {
    /** 413 for a file (or a whole request) too large; carries the field error. */
    tooLarge: () => HttpError;
    /** 400: a second file, or a file in another field. */
    oneFile: string;
    /** 415: not multipart/form-data. */
    notMultipart: string;
  };
  /** Keep the directories of a file's name (busboy cuts them off otherwise): to see and refuse them. */
  preservePath?: boolean;
}

export interface ReadForm<T> {
  fields: Record<string, string>;
  /** The file, when one was sent: its declared name, its size and what `receiveFile` answered. */
  file?: { name: string; size: number; value: T };
}

/** Errors of the multipart parser that are the client's doing, by @fastify/multipart code. */
function clientError(err: unknown, form: UploadForm): HttpError | undefined {
  if (err instanceof HttpError) return err;
  switch ((err as { code?: unknown }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return form.messages.tooLarge();
    case 'FST_FILES_LIMIT':
      return new HttpError(400, form.messages.oneFile);
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new HttpError(413, 'The form has too many fields.');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new HttpError(415, form.messages.notMultipart);
  }
  // File-system errors (they carry a syscall) are ours; anything else came from parsing the body:
  // a missing boundary, a malformed part header, a body that ends early, a prototype field name.
  if (err instanceof Error && !('syscall' in err)) return new HttpError(400, 'The form could not be read.');
  return undefined;
}

/**
 * Sets up an upload route's plugin: the multipart parser with the form's limits and the drain of
 * refused uploads. Call once per plugin (it registers @fastify/multipart in it).
 */
export async function uploads(app: FastifyInstance, form: UploadForm) {
  const maxRequestBytes = form.fileMaxBytes + form.fieldsBudgetBytes;
  await app.register(fastifyMultipart, {
    preservePath: form.preservePath ?? false,
    limits: {
      fileSize: form.fileMaxBytes,
      files: 1,
      fields: form.maxFields,
      fieldSize: form.fieldMaxBytes,
      fieldNameSize: 100,
      parts: form.maxFields + 2,
      headerPairs: 20,
    },
  });
  // a body refused before its end is drained after the answer (below)
  drainRefusedUploads(app);

  /** The route's onRequest: refuses what is not multipart, or declares more than a form may be, unread. */
  async function guard(request: FastifyRequest): Promise<void> {
    const type = request.headers['content-type'] ?? '';
    if (!/^multipart\/form-data\s*;/i.test(type)) throw new HttpError(415, form.messages.notMultipart);
    if (Number(request.headers['content-length']) > maxRequestBytes) throw form.messages.tooLarge();
  }

  /**
   * Reads the body into its text fields and its one file, which `receiveFile` consumes (into a
   * buffer, into a temporary file). Enforces every limit while the body arrives: a request longer
   * than the file and the fields together, or fields beyond their budget before the file starts,
   * is refused at once. Throws HttpError for what the client must fix.
   */
  async function read<T>(
    request: FastifyRequest,
    receiveFile: (file: Readable) => Promise<T>,
  ): Promise<ReadForm<T>> {
    const raw = request.raw;
    let received = 0;
    let fileStarted = false;
    let abort: (err: HttpError) => void = () => {};
    const aborted = new Promise<never>((_, reject) => {
      abort = reject;
    });
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxRequestBytes) abort(form.messages.tooLarge());
      else if (!fileStarted && received > form.fieldsBudgetBytes) {
        // The parser sees this chunk after us and may find the file's start in it; decide after
        // it (and the loop below) had their turn.
        setImmediate(() => {
          if (!fileStarted) abort(new HttpError(413, 'The form is too large.'));
        });
      }
    };
    raw.on('data', onData);

    const parse = (async (): Promise<ReadForm<T>> => {
      const fields: Record<string, string> = {};
      let file: ReadForm<T>['file'];
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          if (part.fieldname !== form.fileField || file) {
            part.file.resume();
            throw new HttpError(400, form.messages.oneFile);
          }
          fileStarted = true;
          part.file.on('limit', () => abort(form.messages.tooLarge()));
          const value = await receiveFile(part.file);
          file = { name: part.filename, size: part.file.bytesRead, value };
        } else {
          if (!form.fieldNames.has(part.fieldname)) continue;
          if (part.fieldname in fields)
            throw new HttpError(400, `The field "${part.fieldname}" was sent twice.`);
          if (part.valueTruncated) {
            const field = part.fieldname;
            throw new HttpError(
              400,
              'Please correct the highlighted fields.',
              { [field]: 'Too long' },
              { [field]: 'tooLong' },
            );
          }
          fields[part.fieldname] = String(part.value);
        }
      }
      return { fields, file };
    })();
    parse.catch(() => {}); // when the abort wins the race, the parser's own failure is expected

    try {
      return await Promise.race([parse, aborted]);
    } catch (err) {
      if (!raw.complete) {
        // stop reading: the answer goes out now (drained, or with Connection: close)
        raw.unpipe();
        raw.pause();
      }
      const mapped = clientError(err, form);
      if (mapped) throw mapped;
      throw err; // a full disk becomes 503 in the app's error handler (lib/dependency-errors.ts)
    } finally {
      raw.off('data', onData);
    }
  }

  return { guard, read };
}

/**
 * How a refused upload ends.
 *
 * A refusal (413, 415, 429, a bad form) is often decided while the body is still arriving. If the
 * server then stopped reading, or closed the connection, the sender would see a hung upload or a
 * broken pipe (EPIPE, "network error") instead of the answer's message. So the answer goes out at
 * once and the rest of the body is read and thrown away, up to DRAIN_MAX_BYTES and DRAIN_MAX_MS,
 * keeping the connection usable; a body declared larger than DRAIN_MAX_BYTES is answered with
 * `Connection: close` instead (a 429's own `Connection: close` is taken back for the drain), and
 * one that turns out larger, or is still arriving (or stalled:
 * some clients stop sending once answered) DRAIN_MAX_MS later, has its connection closed. When
 * the app closes, connections still draining are closed too, so a shutdown never waits on them.
 */
export const DRAIN_MAX_BYTES = 16 * 1024 * 1024;
export const DRAIN_MAX_MS = 15_000;

/** Adds the hooks to an upload route's plugin (done by `uploads`). */
function drainRefusedUploads(app: FastifyInstance): void {
  const draining = new Set<Socket>();

  app.addHook('onSend', async (request, reply, payload) => {
    const raw = request.raw;
    if (raw.complete || raw.destroyed) return payload;
    const declared = Number(request.headers['content-length']);
    if (declared > DRAIN_MAX_BYTES) {
      reply.header('connection', 'close');
      return payload;
    }
    // A 429 says `Connection: close` (app.ts); closed now, the upload still arriving would end in
    // EPIPE before its sender reads the answer (Node 24 closes the socket as soon as the answer is
    // written). The drain below ends the connection instead, after the body or its limits.
    if (reply.statusCode === 429 && !app.frontDoor?.closing) reply.removeHeader('connection');
    // a real socket (app.inject has none to keep or close)
    const socket = typeof raw.socket?.destroy === 'function' ? raw.socket : undefined;
    let drained = 0;
    const stop = () => {
      clearTimeout(timer);
      if (socket) draining.delete(socket);
    };
    const timer = setTimeout(() => {
      stop();
      raw.destroy();
    }, DRAIN_MAX_MS).unref();
    if (socket) {
      draining.add(socket);
      socket.once('close', stop);
    }
    raw.unpipe(); // whatever still parsed it (busboy) lets go
    raw.on('data', (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > DRAIN_MAX_BYTES) raw.destroy();
    });
    // 'end': the body arrived whole (the request's 'close' fires with the answer, too early)
    raw.once('end', stop);
    raw.resume();
    return payload;
  });

  app.addHook('preClose', async () => {
    for (const socket of draining) socket.destroy();
    draining.clear();
  });
}
