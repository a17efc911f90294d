// A call's screenshot beside its step: asked of the core when the step shows (events carry no images), small until
// clicked, then as wide as the stream.
import { useEffect, useState } from 'react';
import type { Shot } from '../../shared/control/activity.js';
import { ControlError } from '../../shared/control/errors.js';
import { messageOf } from '../live/message.js';
import { usePanel } from '../live/panel-context.js';

export const SHOT_GONE = 'screenshot no longer kept';

export function ShotThumb({ id, label }: { id: string; label: string }) {
  const { client } = usePanel();
  const [shot, setShot] = useState<Shot>();
  const [problem, setProblem] = useState<string>();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    let current = true;
    client.call('activity.shot', { id }).then(
      (loaded) => current && setShot(loaded),
      // Many newer screenshots may have come between the event and this ask: the core keeps only the newest few.
      (failed: unknown) =>
        current &&
        setProblem(failed instanceof ControlError && failed.code === 'NOT_FOUND' ? SHOT_GONE : messageOf(failed)),
    );
    return () => void (current = false);
  }, [client, id]);
  if (problem) return <span className="quiet"> ({problem})</span>;
  if (!shot) return null;
  return (
    <button
      type="button"
      className={open ? 'shot shot-open' : 'shot'}
      aria-expanded={open}
      title={open ? 'Show smaller' : 'Show larger'}
      onClick={() => setOpen(!open)}
    >
      <img src={`data:${shot.mimeType};base64,${shot.data}`} alt={label} />
    </button>
  );
}
