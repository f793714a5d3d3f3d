import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

/** What the processes of the site tell each other on one Redis channel. */
export interface RedisChannel {
  /** Sends `message` to the other processes (never back to this one); an outage drops it. */
  publish(message: string): void;
  close(): Promise<void>;
}

/**
 * A Redis publish/subscribe channel between the processes of the site (README "Running at scale"):
 * the public read cache's forgetting, the staff event stream. Each process hears the others'
 * messages, not its own. Redis away: nothing is sent or heard (each user of the channel says what
 * that costs), and nothing waits for it longer than 2 s at start.
 */
export async function openRedisChannel(
  url: string,
  name: string,
  onMessage: (message: string) => void,
): Promise<RedisChannel> {
  const me = randomUUID();
  const options = { connectTimeout: 1000, maxRetriesPerRequest: 1 } as const;
  const publisher = new Redis(url, { ...options, enableOfflineQueue: false });
  const subscriber = new Redis(url, options);
  // unreachable: the rate-limit plugin logs the outage
  publisher.on('error', () => {});
  subscriber.on('error', () => {});
  subscriber.on('message', (_channel: string, text: string) => {
    const space = text.indexOf(' ');
    if (space > 0 && text.slice(0, space) !== me) onMessage(text.slice(space + 1));
  });
  const atMost2s = new Promise((resolve) => setTimeout(resolve, 2000).unref());
  await Promise.race([subscriber.subscribe(name).catch(() => undefined), atMost2s]);
  await Promise.race([
    new Promise((resolve) =>
      publisher.status === 'ready' ? resolve(undefined) : publisher.once('ready', resolve),
    ),
    atMost2s,
  ]);
  return {
    publish: (message) => void publisher.publish(name, `${me} ${message}`).catch(() => undefined),
    close: async () => {
      await Promise.all([
        publisher.quit().catch(() => publisher.disconnect()),
        subscriber.quit().catch(() => subscriber.disconnect()),
      ]);
    },
  };
}
