import type { MigrationDb } from '../migrate';
import { COUNTRY_CODES } from '../../../contract/countries';

/**
 * Where an opening is (docs/decisions/031-where-an-opening-is.md): its work type (onsite, hybrid,
 * remote), its country (ISO 3166-1 alpha-2) and its city or region, for JobPosting's address. The
 * free-text location stays what visitors read. Openings kept before are read from their location
 * as people wrote it ("Kochi, India", "Berlin, Germany (hybrid)", "Remote, EU"): a part that names
 * a country in English gives the country, the part before it the city; what cannot be read is left
 * empty for staff to choose when they next edit the opening.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable('job_opening')
    .addColumn('work_type', 'varchar(10)', (col) => col.notNull().defaultTo('onsite'))
    .execute();
  await db.schema
    .alterTable('job_opening')
    .addColumn('country', 'varchar(2)', (col) => col.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('job_opening')
    .addColumn('locality', 'varchar(200)', (col) => col.notNull().defaultTo(''))
    .execute();

  const rows = await db
    .selectFrom('job_opening')
    .innerJoin('job_type', 'job_type.job_type_id', 'job_opening.job_type_id')
    .select(['job_opening.job_id as job_id', 'job_opening.location as location', 'job_type.job_type_name as type'])
    .execute();
  for (const row of rows as { job_id: number; location: string; type: string }[]) {
    const place = placeOf(row.location, row.type);
    await db.updateTable('job_opening').set(place).where('job_id', '=', row.job_id).execute();
  }
}

export async function down(db: MigrationDb): Promise<void> {
  for (const column of ['locality', 'country', 'work_type'])
    await db.schema.alterTable('job_opening').dropColumn(column).execute();
}

const names = new Intl.DisplayNames(['en'], { type: 'region' });
const COUNTRY_BY_NAME = new Map<string, string>([
  ...COUNTRY_CODES.map((code) => [(names.of(code) ?? code).toLowerCase(), code] as [string, string]),
  ['usa', 'US'],
  ['uk', 'GB'],
  ['england', 'GB'],
  ['scotland', 'GB'],
  ['wales', 'GB'],
  ['great britain', 'GB'],
  ['the netherlands', 'NL'],
  ['ivory coast', 'CI'],
  ["cote d'ivoire", 'CI'],
  ["côte d'ivoire", 'CI'],
]);

/** An opening's place as its location text and job type say it. */
export function placeOf(location: string, jobType: string) {
  const text = location.trim();
  const remote = /^(remote|anywhere)\b/i.test(text) || jobType.trim().toLowerCase() === 'remote';
  const hybrid = /\bhybrid\b/i.test(text);
  const parts = text
    .replace(/\((?:[^()]*)\)/g, ' ')
    .replace(/\b(remote|hybrid|anywhere)\b/gi, ' ')
    .split(/[,;/]| - /)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
  let country = '';
  let at = -1;
  parts.forEach((part, i) => {
    const code = COUNTRY_BY_NAME.get(part.toLowerCase());
    if (code && !country) [country, at] = [code, i];
  });
  const locality = at > 0 ? parts.slice(0, at).join(', ').slice(0, 200) : '';
  return { work_type: remote ? 'remote' : hybrid ? 'hybrid' : 'onsite', country, locality };
}
