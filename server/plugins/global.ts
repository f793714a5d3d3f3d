import type { FastifyPluginAsync, FastifyPluginOptions } from 'fastify';

/**
 * Marks a plugin as not encapsulated, so its decorators and hooks reach the whole app. This is
 * what fastify-plugin does (Fastify's documented `skip-override` symbol), without the extra
 * dependency.
 */
export function global<Options extends FastifyPluginOptions>(
  plugin: FastifyPluginAsync<Options>,
): FastifyPluginAsync<Options> {
  Object.assign(plugin, { [Symbol.for('skip-override')]: true });
  return plugin;
}
