import { createMachine, fromPromise, type AnyStateMachine } from 'xstate';
import { createTestModel } from 'xstate/graph';

type Config = Record<string, unknown>;

/** Event type the test model uses for an `after` transition named `delay`. */
export const timerEvent = (delay: string | number) => `timer.${delay}`;
/** Event types the test model uses for an invoked actor's outcome. */
export const doneEvent = (id: string) => `xstate.done.actor.${id}`;
export const errorEvent = (id: string) => `xstate.error.actor.${id}`;

function rewrite(node: Config): Config {
  const out: Config = { ...node };
  const on: Config = { ...((node.on as Config) ?? {}) };
  const invokes = node.invoke ? (Array.isArray(node.invoke) ? node.invoke : [node.invoke]) : [];
  for (const inv of invokes as Config[]) {
    const id = (inv.id as string) ?? (inv.src as string);
    if (inv.onDone) on[doneEvent(id)] = inv.onDone;
    if (inv.onError) on[errorEvent(id)] = inv.onError;
  }
  delete out.invoke;
  if (node.after) {
    for (const [delay, transition] of Object.entries(node.after as Config)) on[timerEvent(delay)] = transition;
    delete out.after;
  }
  if (Object.keys(on).length) out.on = on;
  if (node.states) {
    out.states = Object.fromEntries(
      Object.entries(node.states as Config).map(([key, child]) => [key, rewrite(child as Config)]),
    );
  }
  return out;
}

/**
 * `createTestModel` refuses machines with `invoke` or `after`. This builds the model from the
 * same machine with each invoked actor's outcome and each delay turned into plain events
 * (`xstate.done.actor.<id>`, `xstate.error.actor.<id>`, `timer.<delay>`), keeping every guard and
 * action. Paths are then replayed on the real machine, where the test resolves the actor or
 * advances the clock for each such step.
 */
export function createPathModel<T extends AnyStateMachine>(
  machine: T,
  options: Parameters<typeof createTestModel<T>>[1],
) {
  const config = rewrite(machine.config as unknown as Config);
  const modelMachine = createMachine(config as never, machine.implementations as never) as unknown as T;
  return createTestModel(modelMachine, options);
}

/** Invoked actors whose outcome each path step decides: `settle(id, output)` or `fail(id, error)`. */
export function controlledActors<Ids extends string>(ids: Ids[]) {
  const pending = new Map<string, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  const inputs = new Map<string, unknown>();
  const actors = Object.fromEntries(
    ids.map((id) => [
      id,
      fromPromise(
        ({ input }) =>
          new Promise((resolve, reject) => {
            inputs.set(id, input);
            pending.set(id, { resolve, reject });
          }),
      ),
    ]),
  ) as Record<Ids, ReturnType<typeof fromPromise>>;
  const take = (id: string) => {
    const p = pending.get(id);
    if (!p) throw new Error(`actor ${id} is not running`);
    pending.delete(id);
    return p;
  };
  return {
    actors,
    lastInput: (id: Ids) => inputs.get(id),
    settle: (id: Ids, output: unknown) => take(id).resolve(output),
    fail: (id: Ids, error: unknown) => take(id).reject(error),
  };
}

/** Lets promise callbacks and the machine's reactions run. */
export const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
