#!/usr/bin/env node
// Mail that is never lost (server/mail/README.md): a real SMTP server on loopback (smtp-server,
// through server/mail/smtp-testing.ts) and the real server as a child process.
//
// 1. The mail server is down while contact messages arrive, then comes back: every mail arrives,
//    each once.
// 2. The server is killed (SIGKILL) while it sends, then started again on the same data: every
//    mail arrives, and at most one twice, with the same Message-ID.
//
//   node bench/faults/mail.mjs [--messages 40]
import fs from 'node:fs';
import { tsImport } from 'tsx/esm/api';
import { freePort, reporter, sleep, startServer, tempDir } from './lib.mjs';

const { startTestSmtp } = await tsImport('../../server/mail/smtp-testing.ts', import.meta.url);

const OWNER = 'owner@faults.example';

async function contact(base, i) {
  const res = await fetch(`${base}/api/contact-messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: `Writer ${i}`,
      email: `writer${i}@journal.example`,
      company: 'Fault Journal',
      message: 'A message that is long enough to pass the rules of the contact form.',
      lang: 'en',
    }),
  });
  return res.status;
}

/** Each writer's acknowledgment and the owner's notices: who got how many, and the Message-IDs. */
function tally(smtp, messages) {
  const ids = smtp.received.map((m) => m.parsed.messageId);
  const missing = [];
  for (let i = 0; i < messages; i++) {
    if (smtp.to(`writer${i}@journal.example`).length === 0) missing.push(`writer${i}`);
  }
  const notices = new Set(smtp.to(OWNER).map((m) => m.parsed.messageId)).size;
  return { total: ids.length, distinct: new Set(ids).size, missing, notices };
}

async function waitForDistinct(smtp, count, ms) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (new Set(smtp.received.map((m) => m.parsed.messageId)).size >= count) return true;
    await sleep(200);
  }
  return false;
}

export async function mailCheck({ messages = 40 } = {}) {
  const r = reporter(`Mail: the mail server down, then the sender killed (${messages} messages each)`);
  r.title();
  const expected = messages * 2; // an acknowledgment and the owner's notice per message

  // 1. the mail server is down, then back
  {
    const smtp = await startTestSmtp();
    await smtp.stop();
    const dataDir = tempDir('mail-down');
    const server = await startServer({
      port: await freePort(),
      dataDir,
      env: {
        SMTP_URL: smtp.url,
        MAIL_RETRY_SECONDS: '1',
        ADMIN_EMAIL: OWNER,
        ADMIN_PASSWORD: 'fault checks owner passphrase',
        SEED_DEMO: 'false',
      },
    });
    try {
      const statuses = await Promise.all(Array.from({ length: messages }, (_, i) => contact(server.base, i)));
      r.check(
        'every message is stored while the mail server is down',
        statuses.every((s) => s === 201),
        `${statuses.filter((s) => s === 201).length}/${messages}`,
      );
      await sleep(2500);
      r.check('nothing arrives while it is down', smtp.received.length === 0);
      const back = Date.now();
      await smtp.start();
      const all = await waitForDistinct(smtp, expected, 60_000);
      await sleep(1500); // anything sent twice would arrive now
      const t = tally(smtp, messages);
      r.check(
        'every mail arrives once the mail server is back',
        all && t.missing.length === 0 && t.notices === messages,
        `${t.distinct}/${expected} in ${((Date.now() - back) / 1000).toFixed(1)} s`,
      );
      r.check(
        'each mail arrives once',
        t.total === t.distinct,
        `${t.total} received, ${t.distinct} distinct`,
      );
    } finally {
      await server.stop();
      await smtp.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }

  // 2. SIGKILL while sending, then a restart on the same data
  {
    const smtp = await startTestSmtp(0, { delayMs: 40 });
    const dataDir = tempDir('mail-kill');
    const port = await freePort();
    const env = {
      SMTP_URL: smtp.url,
      MAIL_LEASE_SECONDS: '4',
      MAIL_RETRY_SECONDS: '1',
      ADMIN_EMAIL: OWNER,
      ADMIN_PASSWORD: 'fault checks owner passphrase',
      SEED_DEMO: 'false',
    };
    let server = await startServer({ port, dataDir, env });
    try {
      const statuses = await Promise.all(Array.from({ length: messages }, (_, i) => contact(server.base, i)));
      r.check(
        'every message is stored',
        statuses.every((s) => s === 201),
      );
      // kill it once a part has gone out, while it is sending the rest
      const deadline = Date.now() + 30_000;
      while (smtp.received.length < Math.floor(expected / 4) && Date.now() < deadline) await sleep(20);
      const before = smtp.received.length;
      await server.stop('SIGKILL');
      r.check(
        'the server was killed while sending',
        before > 0 && before < expected,
        `${before}/${expected} had arrived`,
      );
      server = await startServer({ port, dataDir, env });
      const restarted = Date.now();
      const all = await waitForDistinct(smtp, expected, 60_000);
      await sleep(1500);
      const t = tally(smtp, messages);
      r.check(
        'after the restart every mail arrives',
        all && t.missing.length === 0 && t.notices === messages,
        `${t.distinct}/${expected} in ${((Date.now() - restarted) / 1000).toFixed(1)} s after the restart`,
      );
      r.check(
        'at most one mail arrives twice, with the same Message-ID',
        t.total - t.distinct <= 1,
        `${t.total} received, ${t.distinct} distinct Message-IDs`,
      );
    } finally {
      await server.stop();
      await smtp.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return r.results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf('--messages');
  const results = await mailCheck({ messages: i > 0 ? Number(process.argv[i + 1]) : 40 });
  process.exit(results.every((x) => x.ok) ? 0 : 1);
}
