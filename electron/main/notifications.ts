// Desktop notifications from the activity stream: a new question or a held act waits for the person, who may be
// looking elsewhere; clicking one opens the panel where they answer it.
import { Notification } from 'electron';
import type { ActivityEvent } from '../../shared/control/activity.js';
import { redactText } from '../../shared/redact/text.js';

export interface NotificationText {
  title: string;
  body: string;
}

const MAX_BODY = 180;

/** What to tell the person about an event; undefined for the many events that need nothing of them. */
export function notificationFor(event: ActivityEvent): NotificationText | undefined {
  if (event.type === 'question' && event.change === 'added') {
    const { question } = event;
    if (question.kind === 'site')
      return {
        title: `Allow ${question.site}?`,
        body: clip(
          `The agent wants to ${verb(question.need)} ${question.site} (${question.tool}). Open the panel to answer.`,
        ),
      };
    return { title: 'The agent asks', body: clip(question.text) };
  }
  if (event.type === 'held' && event.change === 'added') {
    return {
      title: `Held: ${event.act.method} to ${event.act.site}`,
      body: clip(`${event.act.why} Release or reject it in the panel.`),
    };
  }
  return undefined;
}

function verb(need: 'read' | 'act' | 'trusted'): string {
  return need === 'read' ? 'read' : need === 'act' ? 'act on' : 'run scripts on';
}

function clip(text: string): string {
  // Cards are already masked; this is belt and braces for a desktop banner anyone nearby can read.
  const clean = redactText(text).replace(/\s+/g, ' ').trim();
  return clean.length > MAX_BODY ? `${clean.slice(0, MAX_BODY - 1)}…` : clean;
}

/** Subscribes to the hub's activity from now on; returns the unsubscribe. */
export function setupNotifications(
  subscribe: (listener: (event: ActivityEvent) => void) => () => void,
  onClick: () => void,
): () => void {
  if (!Notification.isSupported()) return () => undefined;
  return subscribe((event) => {
    const text = notificationFor(event);
    if (!text) return;
    const notification = new Notification({ title: text.title, body: text.body, silent: false });
    notification.on('click', onClick);
    notification.show();
  });
}
