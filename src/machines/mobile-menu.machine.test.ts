import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { everyTransition } from './testing/test-model';
import { MOBILE_MENU_GROUPS, mobileMenuMachine, type MobileMenuEvent } from './mobile-menu.machine';

function started() {
  return createActor(mobileMenuMachine).start();
}

describe('mobile menu', () => {
  it('starts closed with every group collapsed', () => {
    const actor = started();
    expect(actor.getSnapshot().matches('closed')).toBe(true);
    expect(actor.getSnapshot().context.expanded).toBeNull();
  });

  it('opening one group collapses the one that was open', () => {
    const actor = started();
    actor.send({ type: 'menu.open' });
    actor.send({ type: 'group.toggle', group: 'products' });
    actor.send({ type: 'group.toggle', group: 'company' });
    expect(actor.getSnapshot().context.expanded).toBe('company');
  });

  it('toggling the open group collapses it', () => {
    const actor = started();
    actor.send({ type: 'menu.open' });
    actor.send({ type: 'group.toggle', group: 'support' });
    actor.send({ type: 'group.toggle', group: 'support' });
    expect(actor.getSnapshot().context.expanded).toBeNull();
  });

  it('closing the menu collapses all groups, so it reopens collapsed', () => {
    const actor = started();
    actor.send({ type: 'menu.open' });
    actor.send({ type: 'group.toggle', group: 'resources' });
    actor.send({ type: 'menu.close' });
    actor.send({ type: 'menu.open' });
    expect(actor.getSnapshot().matches('open')).toBe(true);
    expect(actor.getSnapshot().context.expanded).toBeNull();
  });

  it('ignores group toggles while closed', () => {
    const actor = started();
    actor.send({ type: 'group.toggle', group: 'products' });
    expect(actor.getSnapshot().context.expanded).toBeNull();
  });
});

describe('mobile menu paths', () => {
  const events: MobileMenuEvent[] = [
    { type: 'menu.open' },
    { type: 'menu.close' },
    ...MOBILE_MENU_GROUPS.map((group) => ({ type: 'group.toggle' as const, group })),
  ];
  const model = createTestModel(mobileMenuMachine, {
    events,
    // Group state is context; serialise it so paths cover each expanded group.
    serializeState: (s) => JSON.stringify([s.value, s.context.expanded]) as never,
  });
  const walk = everyTransition(model, 'mobile-menu.machine', events);
  const paths = walk.paths;

  it('walks every transition its events can take', () => {
    console.log(walk.summary);
    expect(walk.coverage.walked).toBe(walk.coverage.total);
    expect(walk.coverage.total).toBeGreaterThan(0);
  });

  it('covers the closed state and every expanded group', () => {
    const reached = new Set(
      paths
        .flatMap((p) => [p.state, ...p.steps.map((step) => step.state)])
        .map((s) => JSON.stringify([s.value, s.context.expanded])),
    );
    expect(reached.has(JSON.stringify(['closed', null]))).toBe(true);
    for (const g of MOBILE_MENU_GROUPS) expect(reached.has(JSON.stringify(['open', g]))).toBe(true);
  });

  for (const path of paths) {
    it(`holds the one-open-group rule: ${path.description}`, async () => {
      const actor = started();
      await path.test({
        events: Object.fromEntries(
          ['menu.open', 'menu.close', 'group.toggle'].map((type) => [
            type,
            ({ event }: { event: unknown }) => actor.send(event as MobileMenuEvent),
          ]),
        ),
        states: {
          closed: () => expect(actor.getSnapshot().context.expanded).toBeNull(),
          open: (state) => {
            const expanded = actor.getSnapshot().context.expanded;
            expect(expanded).toBe(state.context.expanded);
            const open = MOBILE_MENU_GROUPS.filter((g) => g === expanded);
            expect(open.length).toBeLessThanOrEqual(1);
          },
        },
      });
    });
  }
});
