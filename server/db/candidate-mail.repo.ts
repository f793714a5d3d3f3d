import type { Kysely } from 'kysely';
import type { Database } from './schema';

/** Candidate mail templates staff saved, per template and language. Table access only. */

type Db = Kysely<Database>;

export async function savedTemplates(db: Db, lang: string) {
  return db
    .selectFrom('candidate_mail_template')
    .select(['template', 'lang', 'subject', 'body', 'version'])
    .where('lang', '=', lang)
    .execute();
}

export async function savedTemplate(db: Db, template: string, lang: string) {
  return db
    .selectFrom('candidate_mail_template')
    .select(['template', 'lang', 'subject', 'body', 'version'])
    .where('template', '=', template)
    .where('lang', '=', lang)
    .executeTakeFirst();
}

/**
 * Saves a template if it is still at `version` (1: never saved, the default words; a saved one
 * starts at 2); answers the new version, or null when someone saved it meanwhile.
 */
export async function saveTemplate(
  trx: Db,
  t: { template: string; lang: string; subject: string; body: string },
  version: number,
  now = new Date(),
): Promise<number | null> {
  const at = now.toISOString();
  const updated = await trx
    .updateTable('candidate_mail_template')
    .set({ subject: t.subject, body: t.body, version: version + 1, updated_at: at })
    .where('template', '=', t.template)
    .where('lang', '=', t.lang)
    .where('version', '=', version)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 1) return version + 1;
  if (version !== 1) return null;
  const inserted = await trx
    .insertInto('candidate_mail_template')
    .values({ ...t, version: 2, updated_at: at })
    .onConflict((oc) => oc.columns(['template', 'lang']).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1 ? 2 : null;
}
