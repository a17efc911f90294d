// The panel's frame: the screens in a sidebar (Needs you shows how much waits), the link to the core, and the stop
// state always in view.
import { type ReactNode, useEffect, useState } from 'react';
import type { ControlClient } from '../shared/control/client.js';
import { AuditScreen } from './audit/audit-screen.js';
import { ConnectionScreen } from './connection/connection-screen.js';
import { useActivity } from './live/activity.js';
import { PanelContext, usePanel } from './live/panel-context.js';
import { useLive } from './live/use-live.js';
import { NeedsYouScreen } from './needs-you/needs-you-screen.js';
import { OversightScreen } from './oversight/oversight-screen.js';
import { useEscapeStop } from './oversight/use-escape-stop.js';
import { SitesScreen } from './sites/sites-screen.js';

const SCREENS = {
  needs: { label: 'Needs you', screen: <NeedsYouScreen /> },
  oversight: { label: 'Oversight', screen: <OversightScreen /> },
  sites: { label: 'Allowed sites', screen: <SitesScreen /> },
  connection: { label: 'Connection', screen: <ConnectionScreen /> },
  audit: { label: 'Audit log', screen: <AuditScreen /> },
} satisfies Record<string, { label: string; screen: ReactNode }>;
type ScreenName = keyof typeof SCREENS;

export function App({ client }: { client: ControlClient }) {
  const activity = useActivity(client);
  return (
    <PanelContext.Provider value={{ client, activity }}>
      <Frame />
    </PanelContext.Provider>
  );
}

function Frame() {
  const { activity } = usePanel();
  const [shown, setShown] = useState<ScreenName>(() => screenAsked() ?? 'oversight');
  // The tray opens the panel on a screen (`#screen=sites`), also when the window is already open.
  useEffect(() => {
    const follow = () => setShown((current) => screenAsked() ?? current);
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  const status = useLive((client) => client.call('status'), ['question', 'held', 'stop', 'resume']).value;
  const waiting = status ? status.questions + status.held : 0;
  useEscapeStop(Boolean(status?.stopped));
  return (
    <div className="frame">
      <nav className="sidebar" aria-label="Screens">
        <p className="brand">Chrome MCP</p>
        {(Object.keys(SCREENS) as ScreenName[]).map((name) => (
          <button
            key={name}
            type="button"
            aria-current={shown === name ? 'page' : undefined}
            onClick={() => setShown(name)}
          >
            {SCREENS[name].label}
            {name === 'needs' && waiting ? (
              <span className="badge" aria-label={`${waiting} waiting`}>
                {waiting}
              </span>
            ) : null}
          </button>
        ))}
        <p className={`link ${activity.online ? 'online' : 'offline'}`} role="status">
          {activity.online ? 'Connected to chrome-mcp' : (activity.error ?? 'Connecting…')}
        </p>
        {status?.stopped ? <p className="stopped-flag">Agent stopped</p> : null}
      </nav>
      <main>{SCREENS[shown].screen}</main>
    </div>
  );
}

/** The screen the address names (`#screen=NAME`), if it names one. */
function screenAsked(): ScreenName | undefined {
  const name = new URLSearchParams(location.hash.slice(1)).get('screen');
  return name !== null && Object.hasOwn(SCREENS, name) ? (name as ScreenName) : undefined;
}
