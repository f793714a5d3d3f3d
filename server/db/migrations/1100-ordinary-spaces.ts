import type { MigrationDb } from '../migrate';

/**
 * Rich text saved from the editor before the fix has a non-breaking space (U+00A0) between every
 * pair of words (Quill wrote each space as `&nbsp;`; the sanitiser stored the character), so a
 * phone broke its paragraphs inside words. A field where non-breaking spaces outnumber ordinary
 * ones was typed in that editor: all its U+00A0 become ordinary spaces. A field with only a few
 * (someone's "10 km" on purpose) is left as it is. Rows are read and written in pages of 200.
 */
const NBSP = '\u00a0';

export function repairSpaces(html: string): string {
  const nbsp = html.split(NBSP).length - 1;
  if (nbsp === 0) return html;
  const spaces = html.split(' ').length - 1;
  return nbsp > spaces ? html.split(NBSP).join(' ') : html;
}

async function repair(db: MigrationDb, table: string, key: string, fields: string[]): Promise<void> {
  let after = 0;
  for (;;) {
    const rows: Record<string, unknown>[] = await db
      .selectFrom(table)
      .select([key, ...fields])
      .where(key, '>', after)
      .orderBy(key)
      .limit(200)
      .execute();
    if (rows.length === 0) return;
    for (const row of rows) {
      const changed: Record<string, string> = {};
      for (const field of fields) {
        const value = String(row[field] ?? '');
        const repaired = repairSpaces(value);
        if (repaired !== value) changed[field] = repaired;
      }
      if (Object.keys(changed).length > 0)
        await db.updateTable(table).set(changed).where(key, '=', row[key]).execute();
    }
    after = Number(rows[rows.length - 1][key]);
  }
}

export async function up(db: MigrationDb): Promise<void> {
  await repair(db, 'blog_post', 'blog_id', ['content']);
  await repair(db, 'job_opening', 'job_id', ['description', 'requirement', 'about_role', 'responsibility']);
}

export async function down(): Promise<void> {
  // the glued text is not worth restoring
}
