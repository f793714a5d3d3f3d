import { parseArgs, type ParseArgsConfig } from 'node:util';
import { privateFiles } from '../lib/data-dir';

/**
 * What every operator command here (create-admin, backup, restore) does the same way: make its
 * files private (lib/data-dir.ts), read its
 * arguments (a bad one, or --help, prints the usage), run, and turn a refusal it expects (bad
 * settings, a weak password, a damaged backup) into its message and exit code 1; anything else is
 * a bug and is thrown with its stack.
 *
 *   process.exitCode = await runCommand(USAGE, { out: { type: 'string' } }, async ({ values }) => 0, [BackupError]);
 */
export async function runCommand<O extends NonNullable<ParseArgsConfig['options']>>(
  usage: string,
  options: O,
  run: (args: {
    values: Record<string, string | boolean | undefined>;
    positionals: string[];
  }) => Promise<number>,
  refusals: (abstract new (...args: never[]) => Error)[],
): Promise<number> {
  // what an operator command writes into DATA_DIR or a backup is the server's private data too
  privateFiles();
  let args: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    args = parseArgs({
      options: { ...options, help: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    }) as typeof args;
  } catch (err) {
    console.error(`${err instanceof Error ? err.message : String(err)}\n${usage}`);
    return 1;
  }
  if (args.values.help) {
    console.log(usage);
    return 0;
  }
  try {
    return await run(args);
  } catch (err) {
    if (refusals.some((kind) => err instanceof kind)) {
      console.error((err as Error).message);
      return 1;
    }
    throw err;
  }
}
