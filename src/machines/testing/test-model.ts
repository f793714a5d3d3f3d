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
    for (const [delay, transition] of Object.entries(node.after as Config))
      on[timerEvent(delay)] = transition;
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

type AnyTestModel = ReturnType<typeof createTestModel<AnyStateMachine>>;
type PathOf<M extends AnyTestModel> = ReturnType<M['getShortestPaths']>[number];
type Snap = { value: unknown; can(event: unknown): boolean };
type Ev = { type: string };

/**
 * Paths that together walk every transition the suite's events can take, not only every state:
 * for each state value the model reaches and each of the suite's events that state handles (the
 * snapshot `can` take it: a target or an action), the shortest route to that state followed by
 * that event. A path that is the start of another is dropped (the longer one walks it too).
 *
 * `coverage` counts (state value, event) transitions: `walked` is counted again from the kept
 * paths, `total` is every one there is; `unmodelled` names the machine's event types the suite
 * gives no event for (left to its hand-written tests); `summary` is the line each suite prints.
 */
export function everyTransition<M extends AnyTestModel>(
  model: M,
  name: string,
  /** The events the suite replays (the model's `events`); other event types are not walked. */
  events: readonly Ev[],
) {
  type P = PathOf<M>;
  const adjacency = model.getAdjacencyMap() as unknown as Record<
    string,
    { state: Snap; transitions: Record<string, { event: Ev; state: Snap }> }
  >;
  const serializeState = model.options.serializeState as (s: unknown, e?: unknown, p?: unknown) => string;
  const serializeEvent = model.options.serializeEvent as (e: unknown) => string;
  const eventTypes = new Set(events.map((e) => e.type));
  const handled = (state: Snap, event: Ev) => eventTypes.has(event.type) && state.can(event);
  const edgeOf = (state: Snap, event: Ev) => `${JSON.stringify(state.value)} | ${serializeEvent(event)}`;

  // Breadth first from the initial state: the shortest route (events) to every node of the map,
  // where a node's key is how the map serialises the state it reached (getAdjacencyMap's rule).
  const start = Object.keys(adjacency)[0];
  const routes = new Map<string, Ev[]>([[start, []]]);
  const queue = [start];
  while (queue.length) {
    const key = queue.shift()!;
    const { state, transitions } = adjacency[key];
    for (const { event, state: next } of Object.values(transitions)) {
      const nextKey = serializeState(next, event, state);
      if (routes.has(nextKey) || !adjacency[nextKey]) continue;
      routes.set(nextKey, [...routes.get(key)!, event]);
      queue.push(nextKey);
    }
  }

  /** Replays `route` through the map: the steps of a test path, and the transitions it takes. */
  const replay = (route: Ev[]) => {
    let key = start;
    const steps = [{ state: adjacency[start].state, event: { type: 'xstate.init' } as Ev }];
    const edges: string[] = [];
    for (const event of route) {
      const { state, transitions } = adjacency[key];
      const next = transitions[serializeEvent(event)];
      if (handled(state, event)) edges.push(edgeOf(state, event));
      steps.push({ state: next.state, event });
      key = serializeState(next.state, event, state);
    }
    return { steps, edges, state: steps[steps.length - 1].state };
  };

  // One route per transition: the first (shortest) way found to take it.
  const candidates = new Map<string, Ev[]>();
  for (const [key, route] of routes) {
    const { state, transitions } = adjacency[key];
    for (const { event } of Object.values(transitions)) {
      const edge = edgeOf(state, event);
      if (!handled(state, event)) continue;
      const existing = candidates.get(edge);
      if (!existing || existing.length > route.length + 1) candidates.set(edge, [...route, event]);
    }
  }
  const keyOf = (route: Ev[]) => route.map(serializeEvent);
  const kept: Ev[][] = [];
  for (const route of [...candidates.values()].sort((a, b) => b.length - a.length)) {
    const own = keyOf(route);
    const inside = kept.some((longer) => {
      const other = keyOf(longer);
      return own.length <= other.length && own.every((e, i) => other[i] === e);
    });
    if (!inside) kept.push(route);
  }
  const walked = new Set(kept.flatMap((route) => replay(route).edges));
  const paths = model.getPaths(
    () =>
      kept.map((route) => {
        const { steps, state } = replay(route);
        return { state, steps, weight: route.length } as never;
      }),
    { allowDuplicatePaths: true },
  ) as P[];

  const machineEvents = (model.testLogic as AnyStateMachine).events as string[];
  const unmodelled = machineEvents.filter((t) => !eventTypes.has(t) && !t.startsWith('xstate.'));
  const coverage = { walked: walked.size, total: candidates.size, paths: paths.length };
  const summary =
    `${name}: ${coverage.walked}/${coverage.total} transitions walked in ${paths.length} paths` +
    (unmodelled.length ? `; events left to the hand-written tests: ${unmodelled.join(', ')}` : '');
  return { paths, coverage, unmodelled, summary };
}

/**
 * The same machine without some regions of one parallel state (their config removed, the rest
 * and every implementation kept): a path model of the others, when those regions have actors and
 * timers of their own that would multiply every path (a form's draft regions, for example) and
 * are tested by hand. `valueWithout` strips the same regions from a snapshot's value.
 */
export function withoutRegions<T extends AnyStateMachine>(machine: T, state: string, regions: string[]): T {
  const config = machine.config as unknown as Config & {
    states: Record<string, Config & { states: Config }>;
  };
  const kept = Object.fromEntries(
    Object.entries(config.states[state].states).filter(([key]) => !regions.includes(key)),
  );
  return createMachine(
    { ...config, states: { ...config.states, [state]: { ...config.states[state], states: kept } } } as never,
    machine.implementations as never,
  ) as unknown as T;
}

export function valueWithout(value: unknown, state: string, regions: string[]): unknown {
  const inner = (value as Record<string, Record<string, unknown>> | string)[state as never] as
    Record<string, unknown> | undefined;
  if (typeof value === 'string' || !inner || typeof inner !== 'object') return value;
  return { [state]: Object.fromEntries(Object.entries(inner).filter(([key]) => !regions.includes(key))) };
}
