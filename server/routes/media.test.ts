import { describe, expect, it } from 'vitest';
import { dispositionHeader } from './media';

describe('how a private file is handed to the browser', () => {
  it('shows a PDF in the browser and downloads a Word file, each under its own name', () => {
    expect(dispositionHeader('Asha Menon CV.pdf', 'application/pdf')).toBe(
      `inline; filename="Asha Menon CV.pdf"; filename*=UTF-8''Asha%20Menon%20CV.pdf`,
    );
    const docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    expect(dispositionHeader('Asha Menon CV.docx', docx)).toMatch(
      /^attachment; filename="Asha Menon CV.docx"/,
    );
    expect(dispositionHeader('Asha CV.doc', 'application/msword')).toMatch(/^attachment; /);
  });

  it('keeps quotes, backslashes and non-ASCII out of the plain filename', () => {
    expect(dispositionHeader('ആശ "CV"\\.pdf', 'application/pdf')).toBe(
      `inline; filename="__ _CV__.pdf"; filename*=UTF-8''${encodeURIComponent('ആശ "CV"\\.pdf')}`,
    );
  });
});
