import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { fileTypeFromBuffer } from 'file-type';

/**
 * Upload checks by content: the uploaded name and the declared type
 * decide nothing. A CV is accepted when its bytes are one of:
 * - PDF: file-type finds the `%PDF` signature, followed by a version, and the file ends with the
 *   `%%EOF` marker (so a truncated upload is refused);
 * - DOC: an OLE2 compound file (file-type: `cfb`) whose directory holds a `WordDocument` stream
 *   (so an Excel sheet or an .msi, also OLE2, is refused);
 * - DOCX: a ZIP whose central directory we read ourselves: at most ZIP_MAX_ENTRIES entries, no
 *   ZIP64, no encryption, only stored/deflated entries, declared sizes bounded in total and in
 *   ratio, `[Content_Types].xml` and `word/document.xml` present, and every entry inflated with a
 *   hard output cap to prove its real size is the declared one (a zip bomb fails here without
 *   ever being expanded past the cap).
 */

export type ResumeType = { ext: 'pdf' | 'doc' | 'docx'; contentType: string };
export type CheckResult =
  | { ok: true; type: ResumeType }
  /** `active`: a PDF that carries scripts, launch actions or attached files (or parts we cannot check). */
  | { ok: false; reason: string; active?: true };

export const ZIP_MAX_ENTRIES = 1000;
/**
 * Sum of the entries' uncompressed sizes: the most the check ever expands. A 5 MB CV with
 * pictures (stored or barely compressed) stays well below it.
 */
export const ZIP_MAX_TOTAL_BYTES = 16 * 1024 * 1024;
/** Entries larger than 1 MB may not expand more than this (text XML compresses ~10x). */
export const ZIP_MAX_RATIO = 100;

const PDF: ResumeType = { ext: 'pdf', contentType: 'application/pdf' };
const DOC: ResumeType = { ext: 'doc', contentType: 'application/msword' };
const DOCX: ResumeType = {
  ext: 'docx',
  contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

const refuse = (reason: string): CheckResult => ({ ok: false, reason });

/** Decides whether `bytes` is a PDF, DOC or DOCX CV. Never throws for any input. */
export async function checkResume(bytes: Buffer): Promise<CheckResult> {
  if (bytes.length === 0) return refuse('empty file');
  let detected: string | undefined;
  try {
    detected = (await fileTypeFromBuffer(bytes))?.ext;
  } catch {
    detected = undefined; // file-type's own limits: not something we accept
  }
  switch (detected) {
    case 'pdf': {
      const reason = checkPdf(bytes);
      if (reason) return refuse(reason);
      const active = activePdfContent(bytes);
      return active ? { ok: false, reason: active, active: true } : { ok: true, type: PDF };
    }
    case 'cfb': {
      const reason = checkWordCfb(bytes);
      return reason ? refuse(reason) : { ok: true, type: DOC };
    }
    case 'docx':
    case 'zip': {
      const reason = await checkDocxZip(bytes);
      return reason ? refuse(reason) : { ok: true, type: DOCX };
    }
    default:
      return refuse(detected ? `content is ${detected}` : 'unknown content');
  }
}

// --- PDF ----------------------------------------------------------------------------------

/** Answers why `bytes` is not a complete PDF, or undefined when it looks like one. */
export function checkPdf(bytes: Buffer): string | undefined {
  if (!/^%PDF-[12]\.\d/.test(bytes.toString('latin1', 0, 8))) return 'no PDF version header';
  // Writers may add a few bytes (a newline, padding) after the end marker.
  if (!bytes.toString('latin1', Math.max(0, bytes.length - 1024)).includes('%%EOF'))
    return 'PDF without %%EOF';
  return undefined;
}

/**
 * PDF names that make a viewer run or open something: JavaScript (an /OpenAction, a field's or a
 * page's /AA, a link), a /Launch action, attached files (/EmbeddedFile(s), a /FileAttachment
 * annotation) and /RichMedia. Chromium's viewer runs a PDF's JavaScript whatever the page's CSP
 * says, so a CV that carries any of them is refused at upload.
 */
const ACTIVE_PDF_NAMES = new Set([
  'JavaScript',
  'JS',
  'Launch',
  'EmbeddedFile',
  'EmbeddedFiles',
  'FileAttachment',
  'RichMedia',
]);
/** What the check inflates of a PDF's object streams at most, in all. */
export const PDF_MAX_INFLATED_BYTES = 32 * 1024 * 1024;

/** Every PDF name (`/Name`, with `#xx` escapes decoded) in `text`. */
function* pdfNames(text: string): Generator<string> {
  for (const match of text.matchAll(/\/([^\s()<>[\]{}/%]*)/g)) {
    yield match[1].replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
}

/**
 * Answers why a PDF carries active content, or undefined when it carries none. Actions live in
 * objects, which are either in the file's own text or packed in object streams: the text outside
 * every stream is read, and every object stream is inflated (with a cap) and read too. Other
 * streams (pages, images, fonts) hold no objects and are skipped, so their bytes cannot be
 * mistaken for names. An object stream this check cannot read (another filter, damaged, encrypted)
 * is refused: what cannot be checked is not accepted.
 */
export function activePdfContent(bytes: Buffer): string | undefined {
  const text = bytes.toString('latin1');
  let outside = '';
  let from = 0;
  let inflated = 0;
  const streamStart = /stream\r?\n/g;
  for (let m = streamStart.exec(text); m; m = streamStart.exec(text)) {
    if (text.slice(Math.max(0, m.index - 3), m.index) === 'end') continue;
    const dataStart = m.index + m[0].length;
    const dataEnd = text.indexOf('endstream', dataStart);
    if (dataEnd === -1) break;
    const objStart = text.lastIndexOf(' obj', m.index);
    const dict = text.slice(Math.max(from, objStart === -1 ? 0 : objStart), m.index);
    outside += text.slice(from, dataStart);
    from = dataEnd;
    streamStart.lastIndex = dataEnd + 'endstream'.length;
    const names = [...pdfNames(dict)];
    if (!names.includes('ObjStm')) continue;
    const filters = names.filter((n) => /Decode$/.test(n));
    const raw = bytes.subarray(dataStart, dataEnd);
    let data: Buffer;
    try {
      if (filters.length === 0) data = raw;
      else if (filters.length === 1 && filters[0] === 'FlateDecode') {
        data = zlib.inflateSync(raw, {
          maxOutputLength: Math.max(1, PDF_MAX_INFLATED_BYTES - inflated),
          finishFlush: zlib.constants.Z_SYNC_FLUSH,
        });
      } else return `object stream with filters ${filters.join(', ')}`;
    } catch {
      return 'object stream that cannot be read';
    }
    inflated += data.length;
    for (const name of pdfNames(data.toString('latin1'))) {
      if (ACTIVE_PDF_NAMES.has(name)) return `/${name} in an object stream`;
    }
  }
  outside += text.slice(from);
  for (const name of pdfNames(outside)) {
    if (ACTIVE_PDF_NAMES.has(name)) return `/${name}`;
  }
  return undefined;
}

// --- DOC: OLE2 compound file --------------------------------------------------------------

const CFB_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const CFB_END_OF_CHAIN = 0xfffffffe;

/** Answers why `bytes` is not a Word 97-2003 document, or undefined when it is one. */
export function checkWordCfb(bytes: Buffer): string | undefined {
  if (bytes.length < 512 || !bytes.subarray(0, 8).equals(CFB_MAGIC)) return 'not an OLE2 file';
  if (bytes.readUInt16LE(0x1c) !== 0xfffe) return 'bad OLE2 byte order';
  const shift = bytes.readUInt16LE(0x1e);
  if (shift !== 9 && shift !== 12) return 'bad OLE2 sector size';
  const sectorSize = 1 << shift;
  const sectorCount = Math.floor(bytes.length / sectorSize) - 1;
  const fatSectorCount = bytes.readUInt32LE(0x2c);
  // The header holds the first 109 FAT sector numbers: enough for any file under 6.8 MB.
  if (fatSectorCount > 109) return 'OLE2 file too large';
  const sectorOffset = (n: number) => (n + 1) * sectorSize;
  const fat: number[] = [];
  for (let i = 0; i < fatSectorCount; i++) {
    const sector = bytes.readUInt32LE(0x4c + i * 4);
    if (sector >= sectorCount) return 'bad OLE2 FAT';
    const start = sectorOffset(sector);
    for (let off = start; off < start + sectorSize; off += 4) fat.push(bytes.readUInt32LE(off));
  }
  // Follow the directory chain, reading 128-byte entries, until WordDocument is found.
  const seen = new Set<number>();
  let sector = bytes.readUInt32LE(0x30);
  while (sector !== CFB_END_OF_CHAIN) {
    if (sector >= sectorCount || seen.has(sector) || seen.size > sectorCount) return 'bad OLE2 directory';
    seen.add(sector);
    const start = sectorOffset(sector);
    for (let off = start; off + 128 <= start + sectorSize; off += 128) {
      const nameBytes = bytes.readUInt16LE(off + 0x40);
      const type = bytes[off + 0x42];
      if (type !== 2 || nameBytes < 2 || nameBytes > 64) continue; // 2: a stream
      const name = bytes.toString('utf16le', off, off + nameBytes - 2);
      if (name === 'WordDocument') return undefined;
    }
    sector = sector < fat.length ? fat[sector] : CFB_END_OF_CHAIN + 1;
  }
  return 'OLE2 file without a WordDocument stream';
}

// --- DOCX: ZIP ----------------------------------------------------------------------------

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const inflateRaw = promisify(zlib.inflateRaw);

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

/** Reads the central directory; answers the entries or why the archive is refused. */
export function readZipDirectory(bytes: Buffer): ZipEntry[] | string {
  // The end-of-central-directory record is in the last 22 + 65535 (comment) bytes.
  const lowest = Math.max(0, bytes.length - 22 - 0xffff);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= lowest; i--) {
    if (bytes.readUInt32LE(i) === EOCD_SIGNATURE) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return 'no ZIP central directory';
  const disk = bytes.readUInt16LE(eocd + 4);
  const cdDisk = bytes.readUInt16LE(eocd + 6);
  const entriesHere = bytes.readUInt16LE(eocd + 8);
  const entries = bytes.readUInt16LE(eocd + 10);
  const cdSize = bytes.readUInt32LE(eocd + 12);
  const cdOffset = bytes.readUInt32LE(eocd + 16);
  if (disk !== 0 || cdDisk !== 0 || entriesHere !== entries) return 'multi-part ZIP';
  if (entries === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) return 'ZIP64 archive';
  if (entries === 0) return 'empty ZIP';
  if (entries > ZIP_MAX_ENTRIES) return `ZIP with ${entries} entries`;
  if (cdOffset + cdSize > eocd) return 'ZIP central directory out of bounds';

  const list: ZipEntry[] = [];
  let total = 0;
  let off = cdOffset;
  for (let i = 0; i < entries; i++) {
    if (off + 46 > cdOffset + cdSize || bytes.readUInt32LE(off) !== CENTRAL_SIGNATURE) {
      return 'damaged ZIP central directory';
    }
    const flags = bytes.readUInt16LE(off + 8);
    const method = bytes.readUInt16LE(off + 10);
    const compressedSize = bytes.readUInt32LE(off + 20);
    const size = bytes.readUInt32LE(off + 24);
    const nameLength = bytes.readUInt16LE(off + 28);
    const extraLength = bytes.readUInt16LE(off + 30);
    const commentLength = bytes.readUInt16LE(off + 32);
    const localOffset = bytes.readUInt32LE(off + 42);
    const nameEnd = off + 46 + nameLength;
    if (nameEnd > cdOffset + cdSize) return 'damaged ZIP central directory';
    const name = bytes.toString('utf8', off + 46, nameEnd);
    if (flags & 0x1) return 'encrypted ZIP entry';
    if (method !== 0 && method !== 8) return `ZIP compression method ${method}`;
    if (compressedSize === 0xffffffff || size === 0xffffffff || localOffset === 0xffffffff)
      return 'ZIP64 entry';
    if (localOffset + 30 + compressedSize > cdOffset) return 'ZIP entry out of bounds';
    if (name.startsWith('/') || name.split(/[\\/]/).includes('..') || /\p{Cc}/u.test(name)) {
      return 'ZIP entry with an unsafe name';
    }
    total += size;
    if (total > ZIP_MAX_TOTAL_BYTES) return 'ZIP expands too much';
    if (size > 1024 * 1024 && size > compressedSize * ZIP_MAX_RATIO) return 'ZIP entry compressed too well';
    list.push({ name, method, compressedSize, size, localOffset });
    off = nameEnd + extraLength + commentLength;
  }
  return list;
}

/** Answers why `bytes` is not a safe Word 2007+ document, or undefined when it is one. */
export async function checkDocxZip(bytes: Buffer): Promise<string | undefined> {
  const entries = readZipDirectory(bytes);
  if (typeof entries === 'string') return entries;
  const names = new Set(entries.map((e) => e.name));
  if (!names.has('[Content_Types].xml') || !names.has('word/document.xml'))
    return 'ZIP is not a Word document';
  for (const entry of entries) {
    const at = entry.localOffset;
    if (bytes.readUInt32LE(at) !== LOCAL_SIGNATURE) return 'damaged ZIP entry';
    const start = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
    const end = start + entry.compressedSize;
    if (end > bytes.length) return 'ZIP entry out of bounds';
    const data = bytes.subarray(start, end);
    if (entry.method === 0) {
      if (entry.compressedSize !== entry.size) return 'damaged ZIP entry';
      continue;
    }
    try {
      // The cap is the declared size: an entry that inflates to more fails here, at the cap.
      const out = await inflateRaw(data, { maxOutputLength: Math.max(1, entry.size) });
      if (out.length !== entry.size) return 'ZIP entry size does not match';
    } catch {
      return 'ZIP entry does not inflate to its declared size';
    }
  }
  return undefined;
}

// --- File names ---------------------------------------------------------------------------

/**
 * The uploaded file name is kept for staff only (never a path). A name a browser would never send
 * is refused: empty, over 255 characters, control or invisible format characters (such as a
 * right-to-left override that disguises the extension), or a path (`/`, `\`, so also `../`).
 * Zero-width (non-)joiners stay: Malayalam names use them.
 */
export function cleanFileName(name: string): string | undefined {
  if (!name || name.length > 255) return undefined;
  if (/[\p{Cc}\p{Cf}]/u.test(name.replace(/\u200c|\u200d/g, ''))) return undefined;
  if (/[\\/]/.test(name) || name === '..' || name === '.') return undefined;
  const trimmed = name.trim();
  return trimmed === '' ? undefined : trimmed.normalize('NFC');
}
