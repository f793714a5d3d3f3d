import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The import boundaries (routes -> machines -> offline -> api -> contract; the server imports only
 * contract/ of what the browser app uses; on the server routes -> services -> repositories, lib/ as tools) fail lint when broken: each case lints one deliberately broken import as if it
 * were in that folder, and one allowed import beside it.
 */
describe('lint enforces the import boundaries', () => {
  const eslint = new ESLint({ cwd: process.cwd() });
  const problems = async (filePath: string, code: string) =>
    (await eslint.lintText(code, { filePath }))[0].messages
      .filter((m) => m.ruleId === 'no-restricted-imports')
      .map((m) => m.message);

  it.each([
    [
      'a machine importing an api module',
      'src/machines/x.machine.ts',
      "import { loadBlogPosts } from '../api/blog';\nvoid loadBlogPosts;\n",
      /Machines call the outside only through actors/,
    ],
    [
      'offline/ importing a component',
      'src/offline/x.ts',
      "import { showToast } from '../components/toasts';\nvoid showToast;\n",
      /offline\/ knows no components, routes or machines/,
    ],
    [
      'offline/ importing a route module',
      'src/offline/x.ts',
      "import { PUBLIC_PAGES } from '../routes/paths';\nvoid PUBLIC_PAGES;\n",
      /offline\/ knows no components, routes or machines/,
    ],
    [
      'offline/ importing a machine',
      'src/offline/x.ts',
      "import type { DeviceCopies } from '../machines/offline-page.machine';\nexport type X = DeviceCopies;\n",
      /offline\/ knows no components, routes or machines/,
    ],
    [
      'an api module importing offline storage',
      'src/api/x.ts',
      "import { saveCopy } from '../offline/cache';\nvoid saveCopy;\n",
      /api\/ is the transport/,
    ],
    [
      'the contract importing a machine',
      'contract/x.ts',
      "import { pagedListMachine } from '../src/machines/paged-list.machine';\nvoid pagedListMachine;\n",
      /contract\/ is shared by src\/ and server\//,
    ],
    [
      'the contract importing the server',
      'contract/x.ts',
      "import { HttpError } from '../server/http-error';\nvoid HttpError;\n",
      /imports only zod, libphonenumber-js and its own modules/,
    ],
    [
      'the contract importing a package other than zod',
      'contract/x.ts',
      "import { z } from 'zod';\nimport { Kysely } from 'kysely';\nvoid z;\nvoid Kysely;\n",
      /imports only zod, libphonenumber-js and its own modules/,
    ],
    [
      'the server importing src/',
      'server/lib/x.ts',
      "import { config } from '../../src/config';\nvoid config;\n",
      /The server imports nothing from src\/ but the mail texts/,
    ],
    [
      'the server importing scripts/',
      'server/lib/x.ts',
      "import { run } from '../../scripts/lib/common.mjs';\nvoid run;\n",
      /import nothing from scripts\/ or bench\//,
    ],
    [
      'a service importing Fastify',
      'server/services/x.ts',
      "import type { FastifyRequest } from 'fastify';\nexport type X = FastifyRequest;\n",
      /Services know no HTTP/,
    ],
    [
      'a service importing a plugin',
      'server/services/x.ts',
      "import { hashSessionId } from '../plugins/auth';\nvoid hashSessionId;\n",
      /Services know no HTTP/,
    ],
    [
      'a service calling the listeners of its events',
      'server/services/x.ts',
      "import { listeners } from '../events/listeners';\nvoid listeners;\n",
      /What follows a change is announced/,
    ],
    [
      'the domain events importing a service',
      'server/events/domain-events.ts',
      "import { inTransaction } from '../services/context';\nvoid inTransaction;\n",
      /imports nothing of the server/,
    ],
    [
      'a route importing a repository',
      'server/routes/x.ts',
      "import { listPosts } from '../db/blog.repo';\nvoid listPosts;\n",
      /Routes speak HTTP and call a service/,
    ],
    [
      'a repository importing a service',
      'server/db/x.repo.ts',
      "import { inTransaction } from '../services/context';\nvoid inTransaction;\n",
      /Repositories own tables only/,
    ],
    [
      'a repository importing mail',
      'server/db/x.repo.ts',
      "import { queueMessageMails } from '../mail/mails';\nvoid queueMessageMails;\n",
      /Repositories own tables only/,
    ],
    [
      'lib/ importing a plugin',
      'server/lib/x.ts',
      "import { events } from '../plugins/events';\nvoid events;\n",
      /lib\/ holds tools/,
    ],
    [
      'a service importing src/ (the server-wide rule still holds)',
      'server/services/x.ts',
      "import { config } from '../../src/config';\nvoid config;\n",
      /The server imports nothing from src\/ but the mail texts/,
    ],
    [
      'a back-office area reaching into another area',
      'src/routes/admin/blog/x.tsx',
      "import { OpeningsScreen } from '../hiring/openings';\nvoid OpeningsScreen;\n",
      /A back-office area imports only its own files and \.\.\/shared\//,
    ],
    [
      'a back-office area importing the shell',
      'src/routes/admin/inbox/x.tsx',
      "import { AdminLayout } from '../layout';\nvoid AdminLayout;\n",
      /A back-office area imports only its own files/,
    ],
    [
      "the back office's shared files importing an area",
      'src/routes/admin/shared/x.tsx',
      "import { MessagesScreen } from '../inbox/messages';\nvoid MessagesScreen;\n",
      /shared\/ is what the areas share/,
    ],
    [
      'src/ importing bench/',
      'src/routes/x.ts',
      "import { x } from '../../bench/lib/server.mjs';\nvoid x;\n",
      /import nothing from scripts\/ or bench\//,
    ],
  ])('refuses %s', async (_label, filePath, code, message) => {
    const found = await problems(filePath, code);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(message);
  });

  it('allows what the layers allow', async () => {
    expect(
      await problems(
        'src/machines/x.machine.ts',
        "import type { BlogPostRow } from '../../contract/blog';\nexport type X = BlogPostRow;\n",
      ),
    ).toEqual([]);
    expect(
      await problems('server/lib/x.ts', "import { ID_MAX } from '../../contract/ids';\nvoid ID_MAX;\n"),
    ).toEqual([]);
    expect(
      await problems(
        'server/lib/x.ts',
        "import { safeJson } from '../../common/page-html.mjs';\nvoid safeJson;\n",
      ),
    ).toEqual([]);
    expect(
      await problems(
        'contract/x.ts',
        "import { z } from 'zod/mini';\nimport { ids } from './ids';\nimport { isValidPhoneNumber } from 'libphonenumber-js/min';\nvoid z;\nvoid ids;\nvoid isValidPhoneNumber;\n",
      ),
    ).toEqual([]);
    // a back-office area uses shared/ and the rest of the app
    expect(
      await problems(
        'src/routes/admin/hiring/x.tsx',
        "import { Pager } from '../shared/pager';\nimport { Modal } from '../../../components/modal';\nimport { y } from './y';\nvoid Pager;\nvoid Modal;\nvoid y;\n",
      ),
    ).toEqual([]);
    // the layers' own arrows: routes -> services -> repositories
    expect(
      await problems(
        'server/routes/x.ts',
        "import { listPublished } from '../services/blog';\nvoid listPublished;\n",
      ),
    ).toEqual([]);
    expect(
      await problems(
        'server/services/x.ts',
        "import { listPosts } from '../db/blog.repo';\nvoid listPosts;\n",
      ),
    ).toEqual([]);
    // a service names what happened with the events' types
    expect(
      await problems(
        'server/services/x.ts',
        "import type { DomainEvent } from '../events/domain-events';\nexport type X = DomainEvent;\n",
      ),
    ).toEqual([]);
  });
});

describe('lint keeps table access in the repositories', () => {
  const eslint = new ESLint({ cwd: process.cwd() });
  const refusals = async (filePath: string, code: string) =>
    (await eslint.lintText(code, { filePath }))[0].messages.filter((m) => m.ruleId === 'no-restricted-syntax')
      .length;
  const query = "export const q = (db: any) => db.selectFrom('stored_file').selectAll().execute();\n";

  it('refuses a query in a route, lib or plugin module, and allows it in a repository', async () => {
    expect(await refusals('server/routes/x.ts', query)).toBe(1);
    expect(await refusals('server/lib/x.ts', query.replace('selectFrom', 'deleteFrom'))).toBe(1);
    expect(await refusals('server/plugins/x.ts', query.replace('selectFrom', 'insertInto'))).toBe(1);
    expect(await refusals('server/db/x.repo.ts', query)).toBe(0);
  });
});

describe('lint keeps screen texts in the translation files', () => {
  const eslint = new ESLint({ cwd: process.cwd() });
  const literals = async (filePath: string, code: string) =>
    (await eslint.lintText(code, { filePath }))[0].messages.filter(
      (m) => m.ruleId === 'i18next/no-literal-string',
    ).length;

  it('refuses English text written into a screen or component, and allows translated text and symbols', async () => {
    const screen = (body: string) =>
      `import { useTranslation } from 'react-i18next';\nexport function X() {\n  const { t } = useTranslation('admin');\n  return <p>${body}</p>;\n}\n`;
    expect(await literals('src/routes/admin/x.tsx', screen('Job deleted successfully'))).toBe(1);
    expect(await literals('src/components/x.tsx', screen('Reload the page'))).toBe(1);
    expect(await literals('src/routes/admin/x.tsx', screen("{t('jobToast.deleted')}"))).toBe(0);
    expect(await literals('src/routes/x.tsx', screen("← {t('post.back')} · 2"))).toBe(0);
    expect(await literals('src/routes/x.tsx', screen('Manna'))).toBe(0);
  });
});
