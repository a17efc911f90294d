// Pairing the person's Chrome: a one-time code to type into the extension's popup (with the time it has left), and
// Revoke, which forgets the secret and drops the link at once — and keeps the extension out until it is paired again.
import { useEffect, useState } from 'react';
import type { PairingCode, PairingStatus } from '../../shared/control/pairing.js';
import { useAction } from '../live/use-action.js';
import { usePanel } from '../live/panel-context.js';
import { Card, clock, Problem } from '../parts.js';

export function PairingCard({
  status,
  onStatus,
}: {
  status: PairingStatus;
  onStatus: (status: PairingStatus) => void;
}) {
  const { client } = usePanel();
  const action = useAction();
  const [issued, setIssued] = useState<{ code: PairingCode; at: number }>();
  const left = useSecondsLeft(issued?.code.expires);
  // A code whose time ran out is no use to show, nor one the extension has since connected with, nor one a revoke
  // (from this window or another) has since withdrawn.
  const spent =
    issued &&
    ((status.browser && status.browser.connectedAt >= issued.at) ||
      (status.revokedAt !== null && status.revokedAt >= issued.at));
  const showing = issued && left > 0 && !spent ? issued.code : undefined;
  return (
    <Card title="Pair your Chrome">
      <p>
        {status.paired
          ? `Paired (secret kept in the ${status.store}).`
          : status.revokedAt === null
            ? 'Not paired yet.'
            : 'Not paired.'}{' '}
        To pair, open the Chrome MCP extension's popup in your Chrome and type the code shown here.
      </p>
      {status.revokedAt !== null ? (
        <p className="revoked" data-testid="revoked">
          You revoked the pairing at {clock(status.revokedAt)}. The extension stays unpaired, and will not pair itself
          again, until you pair it again here: press Pair.
        </p>
      ) : null}
      {showing ? (
        <div className="pairing-code">
          <output aria-label="Pairing code">{showing.code}</output>
          <p className="quiet">
            Works once, for {Math.floor(left / 60)}:{String(left % 60).padStart(2, '0')} more.
          </p>
        </div>
      ) : null}
      <div className="buttons">
        <button
          type="button"
          className="primary"
          disabled={action.busy}
          onClick={() =>
            void action.run(async () => setIssued({ code: await client.call('pairing.code'), at: Date.now() }))
          }
        >
          {showing ? 'New code' : 'Pair'}
        </button>
        {status.paired ? (
          <button
            type="button"
            className="danger"
            disabled={action.busy}
            onClick={() =>
              void action.run(async () => (setIssued(undefined), onStatus(await client.call('pairing.revoke'))))
            }
          >
            Revoke
          </button>
        ) : null}
      </div>
      <Problem text={action.error} />
    </Card>
  );
}

/** Whole seconds until `expires` (ms since the epoch), ticking; 0 once passed or with no deadline. */
function useSecondsLeft(expires: number | undefined): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    if (expires === undefined) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [expires]);
  return expires === undefined ? 0 : Math.max(0, Math.ceil((expires - now) / 1_000));
}
