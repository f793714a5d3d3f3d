import { describe, expect, it } from 'vitest';
import {
  lyingZipBombDocx,
  makeZip,
  manyEntriesDocx,
  manyMegabytesDocx,
  plainZip,
  sampleDoc,
  sampleDocx,
  sampleExe,
  samplePdf,
  zipBombDocx,
  hostilePdfs,
  pdfWithBinaryImage,
} from '../../tests/fixtures/files';
import { checkResume, cleanFileName, readZipDirectory } from './file-check';

describe('CV content check', () => {
  it('accepts a real PDF, DOC and DOCX, by content', async () => {
    expect(await checkResume(samplePdf())).toEqual({
      ok: true,
      type: { ext: 'pdf', contentType: 'application/pdf' },
    });
    expect(await checkResume(sampleDoc())).toMatchObject({ ok: true, type: { ext: 'doc' } });
    expect(await checkResume(sampleDocx())).toMatchObject({ ok: true, type: { ext: 'docx' } });
  });

  it('refuses a PDF that runs JavaScript, launches a program or carries a file, however it is written', async () => {
    for (const [kind, make] of Object.entries(hostilePdfs)) {
      const result = await checkResume(make());
      expect(result, kind).toMatchObject({ ok: false, active: true });
    }
    // image bytes that merely look like those names are not names
    expect(await checkResume(pdfWithBinaryImage())).toMatchObject({ ok: true });
  });

  it('refuses an executable, whatever it is called', async () => {
    expect(await checkResume(sampleExe())).toEqual({ ok: false, reason: 'content is exe' });
  });

  it('refuses other OLE2 files (an Excel sheet renamed .doc)', async () => {
    expect(await checkResume(sampleDoc('Workbook'))).toEqual({
      ok: false,
      reason: 'OLE2 file without a WordDocument stream',
    });
  });

  it('refuses a ZIP that is not a Word document', async () => {
    expect(await checkResume(plainZip())).toEqual({ ok: false, reason: 'ZIP is not a Word document' });
  });

  it('refuses a zip bomb from its directory, without inflating it', async () => {
    // this reason is given only by the pass over the central directory, before any entry is
    // inflated (an entry inflated past its cap says "does not inflate to its declared size")
    expect(await checkResume(zipBombDocx())).toEqual({ ok: false, reason: 'ZIP expands too much' });
  });

  it('refuses a zip bomb whose directory lies about the size, stopping at the declared size', async () => {
    expect(await checkResume(lyingZipBombDocx())).toEqual({
      ok: false,
      reason: 'ZIP entry does not inflate to its declared size',
    });
  });

  it('expands at most 16 MB in all: 17 entries of 1 MB are refused, 15 pass', async () => {
    expect(await checkResume(manyMegabytesDocx(17))).toEqual({ ok: false, reason: 'ZIP expands too much' });
    expect(await checkResume(manyMegabytesDocx(15))).toMatchObject({ ok: true });
  });

  it('refuses an archive with more entries than the bound', async () => {
    expect(readZipDirectory(manyEntriesDocx(1500))).toBe('ZIP with 1502 entries');
    expect(await checkResume(manyEntriesDocx(900))).toMatchObject({ ok: true });
  });

  it('refuses encrypted entries, unknown methods and unsafe entry names', async () => {
    const base = [
      { name: '[Content_Types].xml', data: '<Types/>' },
      { name: 'word/document.xml', data: '<w:document/>' },
    ];
    const withEntry = (name: string) => makeZip([...base, { name, data: 'x' }]);
    expect(readZipDirectory(withEntry('../evil.txt'))).toBe('ZIP entry with an unsafe name');
    expect(readZipDirectory(withEntry('/etc/passwd'))).toBe('ZIP entry with an unsafe name');
    const encrypted = makeZip(base);
    const cd = encrypted.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    encrypted.writeUInt16LE(0x0001, cd + 8);
    expect(readZipDirectory(encrypted)).toBe('encrypted ZIP entry');
    const bzip2 = makeZip(base);
    bzip2.writeUInt16LE(12, bzip2.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 10);
    expect(readZipDirectory(bzip2)).toBe('ZIP compression method 12');
  });

  it('refuses truncated and damaged files without throwing', async () => {
    const docx = sampleDocx();
    for (const bytes of [
      docx.subarray(0, docx.length - 30),
      docx.subarray(0, 40),
      sampleDoc().subarray(0, 700),
      Buffer.from('%PDF'),
      Buffer.alloc(0),
      Buffer.from('hello, I am a text file'),
    ]) {
      const result = await checkResume(bytes);
      expect(result.ok).toBe(false);
    }
  });

  it('never throws on random bytes behind a ZIP or OLE2 signature', async () => {
    for (let i = 0; i < 200; i++) {
      const noise = Buffer.from(Array.from({ length: 600 + i * 7 }, () => Math.floor(Math.random() * 256)));
      const zip = Buffer.concat([
        Buffer.from('PK\u0003\u0004'),
        noise,
        Buffer.from('PK\u0005\u0006'),
        noise.subarray(0, 18),
      ]);
      const cfb = Buffer.concat([sampleDoc().subarray(0, 0x4c), noise]);
      await expect(checkResume(zip)).resolves.toHaveProperty('ok');
      await expect(checkResume(cfb)).resolves.toHaveProperty('ok');
    }
  });
});

describe('uploaded file names', () => {
  it('keeps ordinary names, including Malayalam with joiners', () => {
    expect(cleanFileName('Asha Menon CV (final).pdf')).toBe('Asha Menon CV (final).pdf');
    expect(cleanFileName('resume..v2.docx')).toBe('resume..v2.docx');
    expect(cleanFileName('ആശ_സിവി.pdf')).toBe('ആശ_സിവി.pdf');
    expect(cleanFileName('ന്\u200dറ.pdf')).toBe('ന്\u200dറ.pdf');
  });

  it('refuses paths, control characters and disguised extensions', () => {
    expect(cleanFileName('../../etc/passwd.pdf')).toBeUndefined();
    expect(cleanFileName('..\\..\\boot.ini.pdf')).toBeUndefined();
    expect(cleanFileName('cv\u0000.pdf')).toBeUndefined();
    expect(cleanFileName('cv\r\n.pdf')).toBeUndefined();
    expect(cleanFileName('cv\u202Efdp.exe')).toBeUndefined();
    expect(cleanFileName('')).toBeUndefined();
    expect(cleanFileName('   ')).toBeUndefined();
    expect(cleanFileName('a'.repeat(256))).toBeUndefined();
  });
});
