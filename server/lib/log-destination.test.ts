import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { logDestination } from './log-destination';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
function logFile() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manna-log-'));
  dirs.push(dir);
  const file = path.join(dir, 'server.log');
  // appending, as a service manager's log file is opened
  return { file, fd: fs.openSync(file, 'a') };
}
const turn = () => new Promise((resolve) => setImmediate(resolve));
/** The lines in the file once `count` have arrived (or after 5 s). */
async function linesOf(file: string, count: number) {
  const deadline = Date.now() + 5000;
  let lines: string[] = [];
  do {
    await new Promise((resolve) => setTimeout(resolve, 20));
    lines = fs.readFileSync(file, 'utf8').split('\n').slice(0, -1);
  } while (lines.length < count && Date.now() < deadline);
  return lines;
}

describe('logDestination', () => {
  it('writes every line, whole and in order, also lines in other scripts, while writes are under way', async () => {
    const { file, fd } = logFile();
    const log = logDestination(fd);
    const sent: string[] = [];
    for (let burst = 0; burst < 200; burst++) {
      for (let i = 0; i < 25; i++) {
        const line = JSON.stringify({ n: sent.length, msg: i % 5 ? 'request' : 'മലയാളം — café' });
        sent.push(line);
        log.write(`${line}\n`);
      }
      await turn();
    }
    expect(await linesOf(file, sent.length)).toEqual(sent);
    fs.closeSync(fd);
  });

  it('drops the lines of a moment when they pass its limit, never part of a line', async () => {
    const { file, fd } = logFile();
    const log = logDestination(fd, 1000);
    const line = (n: number) => JSON.stringify({ n, msg: 'x'.repeat(180) });
    // one moment: twenty lines (4 kB) at once, more than the 1 kB limit
    for (let n = 0; n < 20; n++) log.write(`${line(n)}\n`);
    await turn();
    await new Promise((resolve) => setTimeout(resolve, 100));
    // the next moment fits
    log.write(`${line(20)}\n`);
    log.write(`${line(21)}\n`);
    expect(await linesOf(file, 2)).toEqual([line(20), line(21)]);
    fs.closeSync(fd);
  });

  it('writes the lines still waiting when the process exits in the same moment', () => {
    const { file, fd } = logFile();
    fs.closeSync(fd);
    const script = [
      `import fs from 'node:fs';`,
      `import { logDestination } from ${JSON.stringify(path.join(import.meta.dirname, 'log-destination.ts'))};`,
      `const log = logDestination(fs.openSync(${JSON.stringify(file)}, 'a'));`,
      `for (let n = 0; n < 1000; n++) log.write(JSON.stringify({ n }) + '\\n');`,
      `process.exit(0);`,
    ].join('\n');
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(child.stderr).toBe('');
    const lines = fs.readFileSync(file, 'utf8').split('\n').slice(0, -1);
    expect(lines).toEqual(Array.from({ length: 1000 }, (_, n) => JSON.stringify({ n })));
  });
});
