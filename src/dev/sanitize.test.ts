import { describe, expect, it } from 'vitest';
import { REDACTED, sanitizeContext, sanitizeEvent } from './sanitize';

describe('what the Stately inspector is sent (development, ?inspect)', () => {
  it("replaces an applicant's personal data in a context, keeping its shape", () => {
    const context = {
      job: { id: 7, title: 'Copy Editor' },
      fields: {
        full_name: 'Asha Menon',
        email: 'asha@example.com',
        contact_number: '9876543210',
        address: '12 MG Road',
        resume: new Blob(['%PDF']),
        consent: true,
      },
      errors: { email: 'emailInvalid' },
      progress: { loaded: 10, total: 100 },
      idempotencyKey: 'f0c3c6d2-2b1e-4d0a-9a51-3f1a2f6e9b10',
    };
    const clean = sanitizeContext(context);
    expect(clean.job).toEqual({ id: 7, title: 'Copy Editor' });
    expect(clean.fields).toBe(REDACTED);
    expect(clean.errors).toEqual({ email: REDACTED });
    expect(clean.progress).toEqual({ loaded: 10, total: 100 });
    expect(JSON.stringify(clean)).not.toMatch(/Asha|asha@|9876543210|MG Road/);
  });

  it('replaces typed values and files in events, keeping the event type and field name', () => {
    expect(sanitizeEvent({ type: 'field.change', name: 'email', value: 'asha@example.com' })).toEqual({
      type: 'field.change',
      name: 'email',
      value: REDACTED,
    });
    expect(
      sanitizeEvent({ type: 'field.change', name: 'resume', value: new Blob(['x']) } as never),
    ).toMatchObject({
      type: 'field.change',
      value: REDACTED,
    });
    expect(sanitizeEvent({ type: 'form.open', job: { id: 7, title: 'Copy Editor' } })).toEqual({
      type: 'form.open',
      job: { id: 7, title: 'Copy Editor' },
    });
  });

  it('redacts contact messages and the send queue entries alike', () => {
    const clean = sanitizeContext({
      entries: [{ id: 'k', kind: 'contact', label: 'Asha', status: 'waiting' }],
      message: { name: 'Asha', email: 'a@b.co', company: 'Journal', message: 'Hello' },
    });
    expect(JSON.stringify(clean)).not.toMatch(/Asha|Hello|a@b\.co|Journal/);
  });
});
