import { assign, setup } from 'xstate';

export type HoverMenuEvent =
  | { type: 'item.enter'; id: string }
  | { type: 'item.leave' }
  | { type: 'item.click'; id: string }
  | { type: 'menu.dismiss' };

export interface HoverMenuInput {
  /** Wait before opening on hover. */
  openDelay: number;
  /** Wait before closing after the pointer leaves. */
  closeDelay: number;
  /** After a close, another item opens at once for this long. */
  skipDelay: number;
}

/**
 * Hover intent for the header's navigation menus (200/300/150 ms) and its tooltips
 * (700/300 ms): one item is shown at a time; moving between items shortly after one
 * closed skips the open delay, as in the spec's navigation menu and tooltip provider.
 */
export const hoverMenuMachine = setup({
  types: {
    context: {} as HoverMenuInput & { active: string | null; pending: string | null },
    events: {} as HoverMenuEvent,
    input: {} as HoverMenuInput,
  },
  delays: {
    openDelay: ({ context }) => context.openDelay,
    closeDelay: ({ context }) => context.closeDelay,
    skipDelay: ({ context }) => context.skipDelay,
  },
  actions: {
    setPending: assign({ pending: ({ event }) => ('id' in event ? event.id : null) }),
    activatePending: assign({ active: ({ context }) => context.pending, pending: null }),
    activateEvent: assign({ active: ({ event }) => ('id' in event ? event.id : null), pending: null }),
    clear: assign({ active: null, pending: null }),
  },
  guards: {
    isActive: ({ context, event }) => 'id' in event && context.active === event.id,
  },
}).createMachine({
  id: 'hoverMenu',
  context: ({ input }) => ({ ...input, active: null, pending: null }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'item.enter': { target: 'opening', actions: 'setPending' },
        'item.click': { target: 'open', actions: 'activateEvent' },
      },
    },
    opening: {
      after: { openDelay: { target: 'open', actions: 'activatePending' } },
      on: {
        'item.enter': { target: 'opening', reenter: true, actions: 'setPending' },
        'item.leave': { target: 'idle', actions: 'clear' },
        'item.click': { target: 'open', actions: 'activateEvent' },
        'menu.dismiss': { target: 'idle', actions: 'clear' },
      },
    },
    open: {
      on: {
        'item.enter': { actions: 'activateEvent' },
        'item.leave': 'closing',
        'item.click': [
          { guard: 'isActive', target: 'recentlyClosed', actions: 'clear' },
          { actions: 'activateEvent' },
        ],
        'menu.dismiss': { target: 'recentlyClosed', actions: 'clear' },
      },
    },
    closing: {
      after: { closeDelay: { target: 'recentlyClosed', actions: 'clear' } },
      on: {
        'item.enter': { target: 'open', actions: 'activateEvent' },
        'item.click': { target: 'open', actions: 'activateEvent' },
        'menu.dismiss': { target: 'recentlyClosed', actions: 'clear' },
      },
    },
    recentlyClosed: {
      after: { skipDelay: 'idle' },
      on: {
        'item.enter': { target: 'open', actions: 'activateEvent' },
        'item.click': { target: 'open', actions: 'activateEvent' },
      },
    },
  },
});
