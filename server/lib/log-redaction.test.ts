import { describe, expect, it } from 'vitest';
import { redactUrl, requestLogFields } from './log-redaction';

/** The rule written plainly (split, decode every name and value): redactUrl must agree with it. */
function plainRule(url: string, depth = 0): string {
  const at = url.indexOf('?');
  if (at === -1) return url;
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  const pairs = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return pair;
      const name = pair.slice(0, eq);
      const plain = decode(name);
      let value = pair.slice(eq + 1);
      for (let i = 0; i < 3; i++) value = decode(value);
      const hidden =
        /sig|signature|token|secret|password|credential|key/i.test(plain) ||
        /^(search|q|email)$/i.test(plain) ||
        value.includes('@');
      if (hidden) return `${name}=[redacted]`;
      if (depth < 2 && value.includes('?')) {
        const inner = plainRule(value, depth + 1);
        if (inner !== value)
          return `${name}=${encodeURIComponent(inner).replaceAll('%5Bredacted%5D', '[redacted]')}`;
      }
      return pair;
    });
  return `${url.slice(0, at)}?${pairs.join('&')}`;
}

describe('redactUrl', () => {
  it('keeps an address without secrets or personal data as it is', () => {
    expect(redactUrl('/api/bind-plan-details?country=India&period=quarterly')).toBe(
      '/api/bind-plan-details?country=India&period=quarterly',
    );
    expect(redactUrl('/about')).toBe('/about');
    expect(redactUrl('/api/x?')).toBe('/api/x?');
  });

  it('hides what a person searched for, even an empty search', () => {
    expect(redactUrl('/api/bind-job-openings?jobid=0&search=nurse&pagenum=1&pagesize=20')).toBe(
      '/api/bind-job-openings?jobid=0&search=[redacted]&pagenum=1&pagesize=20',
    );
    expect(redactUrl('/api/bind-company-blog?search=&pagenum=1')).toBe(
      '/api/bind-company-blog?search=[redacted]&pagenum=1',
    );
    expect(redactUrl('/api/admin/users?Q=ann')).toBe('/api/admin/users?Q=[redacted]');
  });

  it('hides signatures, tokens and keys, also when the name is percent-encoded', () => {
    expect(redactUrl('/media/cv.pdf?exp=1700000000&sig=abc123')).toBe(
      '/media/cv.pdf?exp=1700000000&sig=[redacted]',
    );
    expect(redactUrl('/f?X-Amz-Credential=a%2Fb&X-Amz-Signature=ff')).toBe(
      '/f?X-Amz-Credential=[redacted]&X-Amz-Signature=[redacted]',
    );
    expect(redactUrl('/reset?%74oken=t0p')).toBe('/reset?%74oken=[redacted]');
  });

  it('hides any value holding an email address, encoded or not', () => {
    expect(redactUrl('/api/x?to=ann@example.com&n=1')).toBe('/api/x?to=[redacted]&n=1');
    expect(redactUrl('/api/x?to=ann%40example.com')).toBe('/api/x?to=[redacted]');
    expect(redactUrl('/api/x?to=ann%2540example.com')).toBe('/api/x?to=[redacted]');
  });

  it('looks inside addresses carried in a parameter, encoded once or twice', () => {
    expect(redactUrl('/admin/login?next=%2Fadmin%2Fjob_applications%3Fsearch%3DAsha%2520Menon')).toBe(
      '/admin/login?next=%2Fadmin%2Fjob_applications%3Fsearch%3D[redacted]',
    );
    expect(redactUrl('/admin/login?next=%252Fadmin%253Femail%253Dx%2540y.org')).toBe(
      '/admin/login?next=[redacted]',
    );
    expect(redactUrl('/admin/login?next=/admin/job_applications?search=Asha')).toBe(
      '/admin/login?next=%2Fadmin%2Fjob_applications%3Fsearch%3D[redacted]',
    );
    expect(redactUrl('/admin/login?next=%2Fadmin%2Fblog%3Fpage%3D2')).toBe(
      '/admin/login?next=%2Fadmin%2Fblog%3Fpage%3D2',
    );
  });

  it('keeps malformed escapes and pairs without a value as sent', () => {
    expect(redactUrl('/api/x?%E0%A4%A=1&token&a=%ZZ')).toBe('/api/x?%E0%A4%A=1&token&a=%ZZ');
    expect(redactUrl('/api/x?a=1&&b=2&')).toBe('/api/x?a=1&&b=2&');
  });

  it('agrees with the plain rule on thousands of generated addresses', () => {
    const parts = [
      'a',
      'sig',
      'Search',
      'q',
      'email',
      'x%40y',
      '%',
      '%4',
      '%74oken',
      '+',
      '@',
      '=',
      '&',
      '1',
      'key',
      '%40',
      '%2540',
      '?',
      '%3F',
      '%253D',
      '',
    ];
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % parts.length;
    for (let i = 0; i < 5000; i++) {
      let url = '/api/x?';
      const n = 1 + (i % 9);
      for (let j = 0; j < n; j++) url += parts[next()];
      expect(redactUrl(url), url).toBe(plainRule(url));
    }
  });
});

describe('requestLogFields', () => {
  it('gives the method, the redacted address, the host and the client', () => {
    expect(
      requestLogFields({
        method: 'GET',
        url: '/api/bind-company-blog?search=ann&pagenum=2',
        host: 'manna.example',
        ip: '203.0.113.9',
        socket: { remotePort: 40000 },
      }),
    ).toEqual({
      method: 'GET',
      url: '/api/bind-company-blog?search=[redacted]&pagenum=2',
      host: 'manna.example',
      remoteAddress: '203.0.113.9',
      remotePort: 40000,
    });
  });
});
