// The audit log: every call the agent made (redacted), filtered by tool, decision and a piece of the URL.
import { useEffect, useState } from 'react';
import { CALL_DECISIONS } from '../../shared/control/activity.js';
import type { AuditEntry, AuditFilter } from '../../shared/control/audit.js';
import { useAction } from '../live/use-action.js';
import { usePanel } from '../live/panel-context.js';
import { Card, Problem } from '../parts.js';

type Filter = Pick<AuditFilter, 'tool' | 'decision' | 'site'>;

export function AuditScreen() {
  const { client } = usePanel();
  const action = useAction();
  const [filter, setFilter] = useState<Filter>({});
  const [entries, setEntries] = useState<AuditEntry[]>();
  const read = (wanted: Filter) =>
    action.run(async () => setEntries((await client.call('audit.read', { ...wanted, limit: 500 })).entries));
  // Read once on opening; after that the person asks (the log grows with every call, the table should hold still).
  useEffect(() => void read({}), [client]);
  const edit = (change: Partial<Filter>) => setFilter((old) => ({ ...old, ...change }));
  return (
    <div className="screen">
      <h1>Audit log</h1>
      <form
        className="row filters"
        onSubmit={(event) => {
          event.preventDefault();
          void read(filter);
        }}
      >
        <input
          aria-label="Tool"
          placeholder="tool, e.g. click"
          value={filter.tool ?? ''}
          onChange={(event) => edit({ tool: event.target.value || undefined })}
        />
        <select
          aria-label="Decision"
          value={filter.decision ?? ''}
          onChange={(event) => edit({ decision: (event.target.value || undefined) as Filter['decision'] })}
        >
          <option value="">any decision</option>
          {CALL_DECISIONS.map((decision) => (
            <option key={decision} value={decision}>
              {decision}
            </option>
          ))}
        </select>
        <input
          aria-label="URL contains"
          placeholder="URL contains"
          value={filter.site ?? ''}
          onChange={(event) => edit({ site: event.target.value || undefined })}
        />
        <button type="submit" disabled={action.busy}>
          Show
        </button>
      </form>
      <Problem text={action.error} />
      <Card>
        {entries?.length === 0 ? <p className="quiet">No entries match.</p> : null}
        {entries?.length ? (
          <table className="audit">
            <thead>
              <tr>
                <th>Time</th>
                <th>Client</th>
                <th>Tool</th>
                <th>Element</th>
                <th>URL</th>
                <th>Decision</th>
                <th>ms</th>
              </tr>
            </thead>
            <tbody>
              {entries.toReversed().map((entry, index) => (
                <tr key={`${entry.time}-${index}`}>
                  <td>{new Date(entry.time).toLocaleString()}</td>
                  <td>{entry.client}</td>
                  <td>{entry.tool}</td>
                  <td>{entry.element}</td>
                  <td className="url">{entry.url}</td>
                  <td>
                    <span className={`decision decision-${entry.decision}`}>{entry.decision}</span>
                    {entry.code ? <span className="quiet"> {entry.code}</span> : null}
                  </td>
                  <td>{entry.ms}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </Card>
    </div>
  );
}
