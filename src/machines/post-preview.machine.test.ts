import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { BlogPostRow } from '../../contract/blog';
import { postPreviewMachine, type PostPreviewEvent } from './post-preview.machine';
import {
  controlledActors,
  createPathModel,
  doneEvent,
  errorEvent,
  everyTransition,
  flush,
} from './testing/test-model';

const post = (blog_id: number): BlogPostRow => ({
  blog_id,
  title: 'Reading registers',
  excerpt: 'What they say.',
  content: '<p>Words.</p>',
  publication_date: 'August 6, 2025',
  read_time: '1 min read',
  featured_image_url: '',
  status: 'Draft',
});
const LINK = { url: 'https://manna.example/blog/preview/7.1.abc', expires_at: '2026-12-04T10:00:00.000Z' };

function start() {
  const ctl = controlledActors(['makeLink', 'revokeLinks']);
  const copied: string[] = [];
  const actor = createActor(
    postPreviewMachine.provide({
      actors: ctl.actors as never,
      actions: { copyLink: (_, { url }) => void copied.push(url) },
    }),
  ).start();
  return { actor, ctl, copied, ctx: () => actor.getSnapshot().context };
}

describe('the blog editor preview', () => {
  it('shows the post at a desktop width, then a phone width, and makes a share link of a saved post', async () => {
    const { actor, ctl, copied, ctx } = start();
    actor.send({ type: 'preview.open', post: post(7) });
    expect(actor.getSnapshot().value).toEqual({ open: { width: 'desktop', share: 'idle' } });
    actor.send({ type: 'width.phone' });
    expect(actor.getSnapshot().matches({ open: { width: 'phone' } })).toBe(true);
    actor.send({ type: 'share.make' });
    expect(ctl.lastInput('makeLink')).toEqual({ blogId: 7 });
    ctl.settle('makeLink', LINK);
    await flush();
    expect(ctx().link).toEqual(LINK);
    actor.send({ type: 'share.copy' });
    expect(copied).toEqual([LINK.url]);
    actor.send({ type: 'preview.close' });
    expect(actor.getSnapshot().value).toBe('closed');
    expect(ctx()).toEqual({ post: null, link: null, error: null });
  });

  it('offers no share link for a post never saved, and the button again after a failure', async () => {
    const { actor, ctl, ctx } = start();
    actor.send({ type: 'preview.open', post: post(0) });
    actor.send({ type: 'share.make' });
    expect(actor.getSnapshot().matches({ open: { share: 'idle' } })).toBe(true);
    actor.send({ type: 'preview.close' });
    actor.send({ type: 'preview.open', post: post(3) });
    actor.send({ type: 'share.make' });
    ctl.fail('makeLink', new Error('offline'));
    await flush();
    expect(actor.getSnapshot().matches({ open: { share: 'failed' } })).toBe(true);
    expect(ctx().error).toBeInstanceOf(Error);
    actor.send({ type: 'share.make' });
    expect(actor.getSnapshot().matches({ open: { share: 'making' } })).toBe(true);
  });
});

describe('revoking share links', () => {
  it('forgets the link shown once every link made so far has stopped working; a failure says they still work', async () => {
    const { actor, ctl, ctx } = start();
    actor.send({ type: 'preview.open', post: post(7) });
    actor.send({ type: 'share.make' });
    ctl.settle('makeLink', LINK);
    await flush();
    actor.send({ type: 'share.revoke' });
    expect(ctl.lastInput('revokeLinks')).toEqual({ blogId: 7 });
    ctl.fail('revokeLinks', new Error('offline'));
    await flush();
    expect(actor.getSnapshot().matches({ open: { share: 'revokeFailed' } })).toBe(true);
    actor.send({ type: 'share.revoke' });
    ctl.settle('revokeLinks', { message: 'revoked' });
    await flush();
    expect(actor.getSnapshot().matches({ open: { share: 'revoked' } })).toBe(true);
    expect(ctx().link).toBeNull();
    // an unsaved post has no links to revoke
    actor.send({ type: 'preview.close' });
    actor.send({ type: 'preview.open', post: post(0) });
    actor.send({ type: 'share.revoke' });
    expect(actor.getSnapshot().matches({ open: { share: 'idle' } })).toBe(true);
  });
});

describe('preview paths', () => {
  const events = [
    { type: 'preview.open', post: post(7) },
    { type: 'preview.close' },
    { type: 'width.desktop' },
    { type: 'width.phone' },
    { type: 'share.make' },
    { type: 'share.copy' },
    { type: doneEvent('makeLink'), output: LINK },
    { type: errorEvent('makeLink'), error: new Error('down') },
    { type: 'share.revoke' },
    { type: doneEvent('revokeLinks'), output: { message: 'revoked' } },
    { type: errorEvent('revokeLinks'), error: new Error('down') },
  ];
  const model = createPathModel(postPreviewMachine, { events: events as never });
  const walk = everyTransition(model, 'post-preview.machine', events);

  it('walks every transition its events can take', () => {
    console.log(walk.summary);
    expect(walk.coverage.walked).toBe(walk.coverage.total);
    expect(walk.coverage.total).toBeGreaterThan(8);
  });

  for (const path of walk.paths) {
    it(`a post is shown exactly while the preview is open: ${path.description}`, async () => {
      const { actor, ctl, ctx } = start();
      const send = ({ event }: { event: unknown }) => actor.send(event as PostPreviewEvent);
      const settle =
        (ok: boolean, actorId: 'makeLink' | 'revokeLinks' = 'makeLink') =>
        async ({ event }: { event: unknown }) => {
          const e = event as { output?: unknown; error?: unknown };
          if (ok) ctl.settle(actorId, e.output);
          else ctl.fail(actorId, e.error);
          await flush();
        };
      await path.test({
        events: {
          'preview.open': send,
          'preview.close': send,
          'width.desktop': send,
          'width.phone': send,
          'share.make': send,
          'share.copy': send,
          [doneEvent('makeLink')]: settle(true),
          [errorEvent('makeLink')]: settle(false),
          'share.revoke': send,
          [doneEvent('revokeLinks')]: settle(true, 'revokeLinks'),
          [errorEvent('revokeLinks')]: settle(false, 'revokeLinks'),
        },
        states: {
          closed: () => expect(ctx().post).toBeNull(),
          open: () => expect(ctx().post?.blog_id).toBe(7),
        },
      });
      expect(actor.getSnapshot().value).toEqual(path.state.value);
    });
  }
});
