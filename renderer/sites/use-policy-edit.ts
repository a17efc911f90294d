// Edits to the standing policy, one `policy.set` each, made one after another against the latest accepted policy: two
// quick changes (a level, then the switch) must not send the second on top of the view from before the first.
import { useRef } from 'react';
import type { PolicyEdit, PolicyView } from '../../shared/control/policy-view.js';
import { type Action, useAction } from '../live/use-action.js';
import { usePanel } from '../live/panel-context.js';
import type { Live } from '../live/use-live.js';

export type Edit = (view: PolicyView) => Partial<PolicyEdit>;

export function usePolicyEdit(policy: Live<PolicyView>): Action & { apply(edit: Edit): Promise<boolean> } {
  const { client } = usePanel();
  const save = useAction();
  const latest = useRef(policy.value);
  latest.current = policy.value ?? latest.current;
  const queue = useRef(Promise.resolve(true));
  const apply = (edit: Edit): Promise<boolean> => {
    const done = queue.current.then(() =>
      save.run(async () => {
        const view = latest.current;
        if (!view) return;
        const saved = await client.call('policy.set', {
          rules: view.rules,
          default: view.default,
          downloads: view.downloads,
          tools: view.tools,
          ...edit(view),
        });
        latest.current = saved;
        policy.set(saved);
      }),
    );
    queue.current = done;
    return done;
  };
  return { ...save, apply };
}
