// What every screen reads: the control client and the shared activity stream, provided once by the app.
import { createContext, useContext } from 'react';
import type { ControlClient } from '../../shared/control/client.js';
import type { ActivityState } from './activity.js';

export interface Panel {
  client: ControlClient;
  activity: ActivityState;
}

export const PanelContext = createContext<Panel | undefined>(undefined);

export function usePanel(): Panel {
  const panel = useContext(PanelContext);
  if (!panel) throw new Error('usePanel outside <PanelContext.Provider>');
  return panel;
}
