import { describe, expect, it } from 'vitest';
import { DomainEvents, type DomainEvent } from './domain-events';

/** The process's stream of what happened: order, isolation of a failing listener, waiting for work. */
describe('the domain events of a process', () => {
  const quiet = () => {
    const errors: { obj: object; msg: string }[] = [];
    return { errors, bus: new DomainEvents({ error: (obj, msg) => errors.push({ obj, msg }) }) };
  };
  const received = (id: number): DomainEvent => ({ type: 'message.received', message_id: id });

  it('hands each event to the listeners of its type in the order they listened, then to those of every event', () => {
    const { bus } = quiet();
    const seen: string[] = [];
    bus.on('*', (e) => void seen.push(`any:${e.type}`));
    bus.on('message.received', (e) => void seen.push(`first:${e.message_id}`));
    bus.on('message.received', (e) => void seen.push(`second:${e.message_id}`));
    bus.on('message.deleted', () => void seen.push('never'));
    bus.publish(received(4));
    expect(seen).toEqual(['first:4', 'second:4', 'any:message.received']);
  });

  it('stops handing events to a listener that stopped listening', () => {
    const { bus } = quiet();
    let count = 0;
    const stop = bus.on('message.received', () => void count++);
    bus.publish(received(1));
    stop();
    stop(); // twice is harmless
    bus.publish(received(2));
    expect(count).toBe(1);
  });

  it('logs a listener that throws or rejects; the others still run and publish never throws', async () => {
    const { bus, errors } = quiet();
    const seen: number[] = [];
    bus.on('message.received', () => {
      throw new Error('cache down');
    });
    bus.on('message.received', () => Promise.reject(new Error('webhook down')));
    bus.on('message.received', (e) => void seen.push(e.message_id));
    expect(() => bus.publish(received(9))).not.toThrow();
    expect(seen).toEqual([9]);
    await bus.settled();
    expect(errors.map((e) => (e.obj as { err: Error }).err.message)).toEqual(['cache down', 'webhook down']);
    expect(errors.every((e) => (e.obj as { event: string }).event === 'message.received')).toBe(true);
  });

  it('settled() waits for the work listeners started, and for work that work started', async () => {
    const { bus } = quiet();
    const done: string[] = [];
    bus.on('message.received', async () => {
      await new Promise((r) => setTimeout(r, 20));
      done.push('first');
      bus.publish({ type: 'message.deleted', message_id: 1 });
    });
    bus.on('message.deleted', async () => {
      await new Promise((r) => setTimeout(r, 20));
      done.push('second');
    });
    bus.publish(received(1));
    expect(done).toEqual([]);
    await bus.settled();
    expect(done).toEqual(['first', 'second']);
  });
});
