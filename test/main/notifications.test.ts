// Desktop notifications from the activity stream, Electron faked: a new question or held act tells the person, a click
// opens the panel, and everything else stays quiet.
import type { EventEmitter } from 'node:events';
import { describe, expect, it, type Mock, vi } from 'vitest';
import type { ActivityEvent } from '../../shared/control/activity.js';
import { Notification, fakeElectron } from './support/fake-electron.js';

vi.mock('electron', () => fakeElectron());

const { notificationFor, setupNotifications } = await import('../../electron/main/notifications.js');

const stamp = { seq: 1, time: 0 };
const siteQuestion: ActivityEvent = {
  ...stamp,
  type: 'question',
  change: 'added',
  question: { id: 'q1', kind: 'site', site: 'example.com', need: 'act', tool: 'click', asked: 0 },
};
const held: ActivityEvent = {
  ...stamp,
  type: 'held',
  change: 'added',
  act: {
    id: 'f1.h1',
    site: 'shop.example',
    method: 'POST',
    url: 'https://shop.example/pay',
    summary: 'card=[masked]',
    why: 'The Pay button posts an order.',
    tool: 'click',
    held: 0,
  },
};

describe('notifications', () => {
  it('words a site question, an agent question and a held act', () => {
    expect(notificationFor(siteQuestion)).toEqual({
      title: 'Allow example.com?',
      body: 'The agent wants to act on example.com (click). Open the panel to answer.',
    });
    expect(
      notificationFor({
        ...stamp,
        type: 'question',
        change: 'added',
        question: { id: 'q2', kind: 'agent', text: 'Which account?', asked: 0 },
      }),
    ).toEqual({ title: 'The agent asks', body: 'Which account?' });
    expect(notificationFor(held)).toEqual({
      title: 'Held: POST to shop.example',
      body: 'The Pay button posts an order. Release or reject it in the panel.',
    });
  });

  it('stays quiet for everything else', () => {
    expect(notificationFor({ ...siteQuestion, change: 'answered' } as ActivityEvent)).toBeUndefined();
    expect(notificationFor({ ...stamp, type: 'resume' })).toBeUndefined();
  });

  it('masks a secret an agent put in its question', () => {
    const body = notificationFor({
      ...stamp,
      type: 'question',
      change: 'added',
      question: { id: 'q3', kind: 'agent', text: 'Use ghp_16C7e42F292c6912E7710c838347Ae178B4a?', asked: 0 },
    })!.body;
    expect(body).not.toContain('16C7e42F292c6912E7710c838347Ae178B4a');
  });

  it('shows one notification per event that needs the person, and a click opens the panel', () => {
    let listener: (event: ActivityEvent) => void = () => undefined;
    const onClick = vi.fn();
    setupNotifications((l) => {
      listener = l;
      return () => undefined;
    }, onClick);
    listener({ ...stamp, type: 'resume' });
    listener(held);
    expect(Notification).toHaveBeenCalledTimes(1);
    const shown = vi.mocked(Notification).mock.results[0]!.value as EventEmitter & { show: Mock };
    expect(shown.show).toHaveBeenCalled();
    shown.emit('click');
    expect(onClick).toHaveBeenCalled();
  });
});
