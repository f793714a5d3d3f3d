import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { createPathModel, timerEvent, everyTransition } from './testing/test-model';
import { hoverMenuMachine, type HoverMenuEvent } from './hover-menu.machine';

const NAV = { openDelay: 200, skipDelay: 300, closeDelay: 150 };

describe('header navigation menu timing', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const start = (input = NAV) => createActor(hoverMenuMachine, { input }).start();

  it('opens a menu 200 ms after the pointer enters, not before', () => {
    const actor = start();
    actor.send({ type: 'item.enter', id: 'products' });
    vi.advanceTimersByTime(199);
    expect(actor.getSnapshot().context.active).toBeNull();
    vi.advanceTimersByTime(1);
    expect(actor.getSnapshot().context.active).toBe('products');
  });

  it('does not open when the pointer leaves within the delay', () => {
    const actor = start();
    actor.send({ type: 'item.enter', id: 'products' });
    vi.advanceTimersByTime(100);
    actor.send({ type: 'item.leave' });
    vi.advanceTimersByTime(500);
    expect(actor.getSnapshot().context.active).toBeNull();
  });

  it('closes 150 ms after the pointer leaves', () => {
    const actor = start();
    actor.send({ type: 'item.click', id: 'company' });
    actor.send({ type: 'item.leave' });
    vi.advanceTimersByTime(149);
    expect(actor.getSnapshot().context.active).toBe('company');
    vi.advanceTimersByTime(1);
    expect(actor.getSnapshot().context.active).toBeNull();
  });

  it('opens the next menu at once within the 300 ms skip delay, and with the delay after it', () => {
    const actor = start();
    actor.send({ type: 'item.click', id: 'products' });
    actor.send({ type: 'item.leave' });
    vi.advanceTimersByTime(150 + 299);
    actor.send({ type: 'item.enter', id: 'company' });
    expect(actor.getSnapshot().context.active).toBe('company');

    actor.send({ type: 'item.leave' });
    vi.advanceTimersByTime(150 + 300);
    actor.send({ type: 'item.enter', id: 'resources' });
    expect(actor.getSnapshot().context.active).toBeNull();
    vi.advanceTimersByTime(200);
    expect(actor.getSnapshot().context.active).toBe('resources');
  });

  it('moving from one open menu to another switches at once', () => {
    const actor = start();
    actor.send({ type: 'item.click', id: 'products' });
    actor.send({ type: 'item.enter', id: 'company' });
    expect(actor.getSnapshot().context.active).toBe('company');
  });

  it('a second click on the open trigger closes it; Escape dismisses', () => {
    const actor = start();
    actor.send({ type: 'item.click', id: 'products' });
    actor.send({ type: 'item.click', id: 'products' });
    expect(actor.getSnapshot().context.active).toBeNull();
    actor.send({ type: 'item.click', id: 'products' });
    actor.send({ type: 'menu.dismiss' });
    expect(actor.getSnapshot().context.active).toBeNull();
  });

  it('tooltips wait 700 ms', () => {
    const actor = start({ openDelay: 700, skipDelay: 300, closeDelay: 0 });
    actor.send({ type: 'item.enter', id: 'demo' });
    vi.advanceTimersByTime(699);
    expect(actor.getSnapshot().context.active).toBeNull();
    vi.advanceTimersByTime(1);
    expect(actor.getSnapshot().context.active).toBe('demo');
  });
});

describe('header navigation menu paths', () => {
  const events = [
    { type: 'item.enter', id: 'a' },
    { type: 'item.enter', id: 'b' },
    { type: 'item.leave' },
    { type: 'item.click', id: 'a' },
    { type: 'menu.dismiss' },
    { type: timerEvent('openDelay') },
    { type: timerEvent('closeDelay') },
    { type: timerEvent('skipDelay') },
  ];
  const model = createPathModel(hoverMenuMachine, { events: events as never });
  const walk = everyTransition(model, 'hover-menu.machine', events);
  const paths = walk.paths;

  it('walks every transition its events can take', () => {
    console.log(walk.summary);
    expect(walk.coverage.walked).toBe(walk.coverage.total);
    expect(walk.coverage.total).toBeGreaterThan(0);
  });

  it('reaches every state', () => {
    const reached = new Set(paths.flatMap((p) => p.steps.map((step) => step.state.value)));
    expect([...reached].sort()).toEqual(['closing', 'idle', 'open', 'opening', 'recentlyClosed']);
  });

  for (const path of paths) {
    it(`keeps at most one menu open and honours the delays: ${path.description}`, async () => {
      vi.useFakeTimers();
      const actor = createActor(hoverMenuMachine, { input: NAV }).start();
      const fire = (delay: keyof typeof NAV) => () => {
        vi.advanceTimersByTime(NAV[delay]);
      };
      await path.test({
        events: {
          'item.enter': ({ event }) => actor.send(event as HoverMenuEvent),
          'item.leave': ({ event }) => actor.send(event as HoverMenuEvent),
          'item.click': ({ event }) => actor.send(event as HoverMenuEvent),
          'menu.dismiss': ({ event }) => actor.send(event as HoverMenuEvent),
          [timerEvent('openDelay')]: fire('openDelay'),
          [timerEvent('closeDelay')]: fire('closeDelay'),
          [timerEvent('skipDelay')]: fire('skipDelay'),
        },
        states: {
          idle: () => expect(actor.getSnapshot().context.active).toBeNull(),
          opening: () => expect(actor.getSnapshot().context.active).toBeNull(),
          open: () => expect(actor.getSnapshot().context.active).not.toBeNull(),
          closing: () => expect(actor.getSnapshot().context.active).not.toBeNull(),
          recentlyClosed: () => expect(actor.getSnapshot().context.active).toBeNull(),
        },
      });
      expect(actor.getSnapshot().value).toEqual(path.state.value);
      vi.useRealTimers();
    });
  }
});
