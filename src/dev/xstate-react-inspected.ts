/**
 * Development builds only: vite.config.ts resolves '@xstate/react' to this file, which is
 * @xstate/react itself (from '@xstate-react-original') with useMachine, useActor and useActorRef
 * passing the Stately inspector's observer to every actor they create, once src/dev/inspector.ts
 * has started it (`?inspect`). Without ?inspect nothing changes.
 */
import * as original from '@xstate-react-original';
import { getInspect } from './inspect-registry';

export * from '@xstate-react-original';

type Options = { inspect?: unknown } | undefined;

function withInspect<T extends Options>(options: T): T {
  const inspect = getInspect();
  if (!inspect || (options && options.inspect)) return options;
  return { ...(options ?? {}), inspect } as T;
}

export const useMachine: typeof original.useMachine = (machine, ...rest) =>
  original.useMachine(machine, ...([withInspect(rest[0] as Options)] as unknown as typeof rest));

export const useActor: typeof original.useActor = (logic, ...rest) =>
  original.useActor(logic, ...([withInspect(rest[0] as Options)] as unknown as typeof rest));

export const useActorRef: typeof original.useActorRef = (logic, ...rest) =>
  original.useActorRef(
    logic,
    ...([withInspect(rest[0] as Options), ...rest.slice(1)] as unknown as typeof rest),
  );
