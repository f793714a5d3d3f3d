import type { AnyStateMachine } from 'xstate';

/**
 * Every machine's definition as JSON, for docs/machines/ (`npm run machines`) and the Stately
 * visualiser: the states, events, targets, invoked actors, delays and the names of guards and
 * actions, as written in the machine's config. Implementations are code, not data: an inline guard
 * or action is named "(inline)"; an inline context, input or params function is left out.
 */
export function machineJson(machine: AnyStateMachine): string {
  const inline = '(inline)';
  return `${JSON.stringify(
    machine.config,
    (key, value) => {
      if (typeof value !== 'function') return value;
      // a guard or an action written in place: name its place, so the diagram keeps the arrow
      if (key === 'guard' || key === 'actions' || key === 'entry' || key === 'exit' || /^\d+$/.test(key))
        return inline;
      return undefined;
    },
    2,
  )}\n`;
}

/** The machine modules: file name (without `.machine.ts`) and the machines each exports. */
export function machinesOf(
  modules: Record<string, Record<string, unknown>>,
): { name: string; machine: AnyStateMachine }[] {
  const out: { name: string; machine: AnyStateMachine }[] = [];
  const files = Object.entries(modules).sort(([a], [b]) => a.localeCompare(b));
  const baseOf = (file: string) => file.replace(/^.*\//, '').replace(/\.machine\.ts$/, '');
  // a module's own machine is drawn by that module only: a list another module builds from the
  // shared paged-list machine is the same diagram, drawn once
  const owned = new Set(
    files.flatMap(([file, exports]) => {
      const own = exports[`${camel(baseOf(file))}Machine`];
      return isMachine(own) ? [machineJson(own)] : [];
    }),
  );
  for (const [file, exports] of files) {
    const base = baseOf(file);
    const seen = new Set<unknown>();
    // the module's own machine first; a `.provide()` copy of it (same config) is not drawn twice
    const entries = Object.entries(exports).sort(
      ([a], [b]) => Number(b === `${camel(base)}Machine`) - Number(a === `${camel(base)}Machine`),
    );
    for (const [exportName, value] of entries) {
      const own = exportName === `${camel(base)}Machine`;
      if (!isMachine(value) || seen.has(value.config)) continue;
      if (!own && owned.has(machineJson(value))) continue;
      seen.add(value.config);
      out.push({ name: own ? base : `${base}.${exportName}`, machine: value });
    }
  }
  return out;
}

const camel = (kebab: string) => kebab.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

function isMachine(value: unknown): value is AnyStateMachine {
  return (
    typeof value === 'object' &&
    value !== null &&
    'config' in value &&
    'root' in value &&
    typeof (value as { provide?: unknown }).provide === 'function'
  );
}
