import type { FastifyInstance } from 'fastify';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterEach, describe, expect, it } from 'vitest';
import { runRetentionTask } from '../services/retention';
import { createTestApp } from '../testing';

const TOKEN = 'metrics-token-for-tests-0123456789';

describe('GET /metrics', () => {
  let app: FastifyInstance;
  afterEach(() => app?.close());

  it('does not exist unless METRICS_TOKEN is set', async () => {
    app = await createTestApp();
    const res = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('http_requests_total');
  });

  it('answers only with the bearer token', async () => {
    app = await createTestApp({ METRICS_TOKEN: TOKEN });
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789abcd', TOKEN, `Basic ${TOKEN}`]) {
      const res = await app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.body).not.toContain('http_requests_total');
    }
  });

  it('is read by a Prometheus text parser: requests by route and status, latency, tasks, process', async () => {
    app = await createTestApp({ METRICS_TOKEN: TOKEN });
    for (let i = 0; i < 3; i++) expect((await app.inject('/api/health')).statusCode).toBe(200);
    expect((await app.inject('/api/admin/users')).statusCode).toBe(401);
    // a change without the same-origin header is refused before anything else (403)
    expect(
      (await app.inject({ method: 'PATCH', url: '/api/admin/users/12345', payload: {} })).statusCode,
    ).toBe(403);
    expect((await app.inject('/api/no-such-thing/98765')).statusCode).toBe(404);
    await runRetentionTask(app.services(), { retentionDays: 365, now: new Date() });

    const res = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['cache-control']).toBe('no-store');
    const families = new Map(parsePrometheusTextFormat(res.body).map((f) => [f.name, f]));
    const sample = (name: string, labels: Record<string, string>) =>
      families.get(name)?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));

    expect(families.get('http_requests_total')?.type).toBe('COUNTER');
    expect(sample('http_requests_total', { method: 'GET', route: '/api/health', status: '200' })?.value).toBe(
      '3',
    );
    expect(sample('http_requests_total', { route: '/api/admin/users', status: '401' })?.value).toBe('1');
    // the route pattern, never the address: one series whatever the id, and unknown addresses
    // share one series too
    expect(
      sample('http_requests_total', { method: 'PATCH', route: '/api/admin/users/:id', status: '403' })?.value,
    ).toBe('1');
    expect(sample('http_requests_total', { route: 'unmatched', status: '404' })?.value).toBe('1');
    // no label names an address's id (a sample's value may hold those digits by chance: a byte
    // count, a duration)
    const labelValues = [...families.values()].flatMap((f) =>
      f.metrics.flatMap((m) => Object.values(m.labels ?? {}) as string[]),
    );
    expect(labelValues.filter((v) => v.includes('12345') || v.includes('98765'))).toEqual([]);

    // The parser reads the histogram's type; it folds labelled histograms into one sample, so
    // their series are read from the text itself.
    expect(families.get('http_request_duration_seconds')?.type).toBe('HISTOGRAM');
    const series = (suffix: string) =>
      res.body
        .split('\n')
        .filter(
          (l) =>
            l.startsWith(`http_request_duration_seconds_${suffix}{`) && l.includes('route="/api/health"'),
        );
    expect(series('count')).toEqual([expect.stringMatching(/ 3$/)]);
    expect(series('bucket').some((l) => l.includes('le="0.1"'))).toBe(true);
    expect(series('bucket').find((l) => l.includes('le="+Inf"'))).toMatch(/ 3$/);

    expect(sample('manna_scheduled_task_last_run_ok', { task: 'application-retention' })?.value).toBe('1');
    const lastRun = Number(
      sample('manna_scheduled_task_last_run_timestamp_seconds', { task: 'application-retention' })?.value,
    );
    expect(Math.abs(lastRun - Date.now() / 1000)).toBeLessThan(600);

    expect(families.get('process_cpu_user_seconds_total')?.type).toBe('COUNTER');
    expect(families.has('nodejs_eventloop_lag_seconds')).toBe(true);
    if (app.dialect === 'postgres') {
      expect(sample('manna_db_pool_connections', { state: 'total' })).toBeDefined();
    } else {
      expect(families.get('manna_db_pool_connections')?.metrics ?? []).toEqual([]);
    }
  });
});
