import { describe, expect, it } from 'vitest';
import { BUILT_IN_ROLES } from '../../../../contract/auth';
import { homeFor, isRestorableScreen, lastScreenKey, linkForPath, linksFor, safeNext } from './admin-links';

describe('admin sidebar links', () => {
  it('shows each role only the links it may use, in the spec order', () => {
    expect(linksFor(BUILT_IN_ROLES.owner).map((l) => l.to)).toEqual([
      '/admin/books',
      '/admin/blog',
      '/admin/job_applications',
      '/admin/messages',
      '/admin/insights',
      '/admin/users',
      '/admin/mail',
      '/admin/activity',
      '/admin/webhooks',
    ]);
    expect(linksFor(BUILT_IN_ROLES.recruiter).map((l) => l.to)).toEqual([
      '/admin/books',
      '/admin/job_applications',
      '/admin/messages',
    ]);
    expect(linksFor(BUILT_IN_ROLES.editor).map((l) => l.to)).toEqual(['/admin/blog']);
  });

  it('opens openings for jobs.manage, else the first screen the role may use, else nothing', () => {
    expect(homeFor(BUILT_IN_ROLES.recruiter)).toBe('/admin/books');
    expect(homeFor(BUILT_IN_ROLES.editor)).toBe('/admin/blog');
    expect(homeFor(['audit.read'])).toBe('/admin/activity');
    expect(homeFor([])).toBeNull();
  });

  it('names the header after the current link, aliases and sub-addresses included', () => {
    expect(linkForPath('/admin/books')?.label).toBe('nav.openings');
    expect(linkForPath('/admin/currentopenings/')?.label).toBe('nav.openings');
    expect(linkForPath('/admin/blog')?.label).toBe('nav.blog');
    expect(linkForPath('/admin/contact')).toBeUndefined();
    expect(linkForPath('/admin/blogger')).toBeUndefined();
  });

  it('returns after sign-in only to admin addresses of this site', () => {
    expect(safeNext('/admin/users?x=1')).toBe('/admin/users?x=1');
    expect(safeNext('https://evil.example/admin')).toBe('/admin');
    expect(safeNext('//evil.example/admin')).toBe('/admin');
    expect(safeNext('/admin/login?next=/admin')).toBe('/admin');
    expect(safeNext(null)).toBe('/admin');
  });
});

describe('the screen the installed back office reopens', () => {
  it('keeps admin screens with their filters, not sign-in, setup, the password screen or the index', () => {
    expect(isRestorableScreen('/admin/job_applications?status=New&page=2')).toBe(true);
    expect(isRestorableScreen('/admin/books?page=3')).toBe(true);
    for (const path of [
      '/admin',
      '/admin/',
      '/admin/login?next=%2Fadmin',
      '/admin/setup?token=x',
      '/admin/password',
      '//evil.example/admin/x',
      '/blog',
    ])
      expect(isRestorableScreen(path), path).toBe(false);
    expect(lastScreenKey(7)).not.toBe(lastScreenKey(8));
  });
});
