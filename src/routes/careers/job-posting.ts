import { jobPath, type JobOpeningRow } from '../../api/contract/jobs';
import type { JobCardText } from './job-text';

/**
 * schema.org JobPosting of an opening, in its own page's head (`/careers/{slug}`, rendered by the
 * server with the opening), as Google asks: one posting on the most detailed page, none on lists.
 * `origin` is the site's address ('%PUBLIC_URL%' in a server render, which the page assembly fills
 * in). See src/routes/careers/README.md.
 */

const EMPLOYMENT_TYPES: Record<string, string> = {
  'full-time': 'FULL_TIME',
  'part-time': 'PART_TIME',
  contract: 'CONTRACTOR',
  internship: 'INTERN',
  temporary: 'TEMPORARY',
};

export function jobPosting(row: JobOpeningRow, text: JobCardText & { description: string }, origin: string) {
  const type = row.job_type_name.trim().toLowerCase();
  const remote = type === 'remote' || /^(remote|anywhere)\b/i.test(row.location.trim());
  const [locality, ...rest] = row.location.split(',').map((s) => s.trim());
  const country = rest.join(', ');
  const description = [
    text.description,
    text.about,
    text.responsibilities.length ? `Responsibilities: ${text.responsibilities.join('; ')}.` : '',
    text.requirements.length ? `Requirements: ${text.requirements.join('; ')}.` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
  return {
    '@context': 'https://schema.org',
    '@type': 'JobPosting',
    title: row.job_title,
    description,
    identifier: { '@type': 'PropertyValue', name: 'Manna', value: String(row.job_id) },
    ...(row.created_at ? { datePosted: row.created_at.slice(0, 10) } : {}),
    ...(EMPLOYMENT_TYPES[type] ? { employmentType: EMPLOYMENT_TYPES[type] } : {}),
    hiringOrganization: {
      '@type': 'Organization',
      name: 'Manna',
      sameAs: origin,
      logo: `${origin}/favicon.svg`,
    },
    industry: 'Software',
    occupationalCategory: row.department,
    directApply: true,
    url: `${origin}${jobPath(row)}`,
    ...(remote
      ? {
          jobLocationType: 'TELECOMMUTE',
          // where applicants may live: the location as written ("Remote, EU", "Anywhere (UTC-5 to UTC+5:30)")
          applicantLocationRequirements: {
            '@type': 'AdministrativeArea',
            name: row.location.replace(/^remote\b[\s,:-]*/i, '').trim() || row.location,
          },
        }
      : {
          jobLocation: {
            '@type': 'Place',
            address: {
              '@type': 'PostalAddress',
              addressLocality: locality,
              ...(country ? { addressCountry: country } : {}),
            },
          },
        }),
  };
}

/** JSON for a `<script type="application/ld+json">`: `<` escaped so no text can close the tag. */
export function jsonLdText(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
