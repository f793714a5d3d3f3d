import { countryName } from '../../../contract/countries';
import { jobPath, type JobOpeningRow } from '../../../contract/jobs';
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
  const place = placeOf(row);
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
    ...(place.remote
      ? {
          jobLocationType: 'TELECOMMUTE',
          // where applicants may live: the opening's country, else the location as written
          applicantLocationRequirements: place.country
            ? { '@type': 'Country', name: countryName(place.country, 'en') }
            : {
                '@type': 'AdministrativeArea',
                name: row.location.replace(/^remote\b[\s,:-]*/i, '').trim() || row.location,
              },
        }
      : {
          jobLocation: {
            '@type': 'Place',
            address: {
              '@type': 'PostalAddress',
              ...(place.locality ? { addressLocality: place.locality } : {}),
              ...(place.country ? { addressCountry: place.country } : {}),
            },
          },
        }),
  };
}

/**
 * Where an opening is, for search engines: its work type, country (ISO code) and city
 * (docs/decisions/031-where-an-opening-is.md). A row without them (a customer's backend) is read
 * from its free-text location: remote when it starts "Remote" or "Anywhere", else its first part
 * as the city and no country (a country written in words is not a code).
 */
function placeOf(row: JobOpeningRow): { remote: boolean; country: string; locality: string } {
  if (row.work_type)
    return { remote: row.work_type === 'remote', country: row.country ?? '', locality: row.locality ?? '' };
  const remote = row.job_type_name.trim().toLowerCase() === 'remote' || /^(remote|anywhere)\b/i.test(row.location.trim());
  return { remote, country: '', locality: row.location.split(',')[0]!.trim() };
}

/** JSON for a `<script type="application/ld+json">`: `<` escaped so no text can close the tag. */
export function jsonLdText(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
