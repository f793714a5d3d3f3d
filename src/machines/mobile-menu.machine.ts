import { assign, setup } from 'xstate';

export const MOBILE_MENU_GROUPS = ['products', 'resources', 'support', 'company'] as const;
export type MobileMenuGroup = (typeof MOBILE_MENU_GROUPS)[number];

export type MobileMenuEvent =
  { type: 'menu.open' } | { type: 'menu.close' } | { type: 'group.toggle'; group: MobileMenuGroup };

/**
 * The phone menu: a slide-in panel with four groups, at most one expanded.
 * Opening a group collapses the others; closing the menu (close button, overlay,
 * Escape or following a link) collapses them all.
 */
export const mobileMenuMachine = setup({
  types: {
    context: {} as { expanded: MobileMenuGroup | null },
    events: {} as MobileMenuEvent,
  },
  actions: {
    collapseAll: assign({ expanded: null }),
    toggleGroup: assign({
      expanded: ({ context, event }) => {
        if (event.type !== 'group.toggle') return context.expanded;
        return context.expanded === event.group ? null : event.group;
      },
    }),
  },
}).createMachine({
  id: 'mobileMenu',
  initial: 'closed',
  context: { expanded: null },
  states: {
    closed: {
      entry: 'collapseAll',
      on: { 'menu.open': 'open' },
    },
    open: {
      on: {
        'menu.close': 'closed',
        'group.toggle': { actions: 'toggleGroup' },
      },
    },
  },
});
