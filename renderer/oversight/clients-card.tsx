// The MCP clients connected to the core now and since when: each is an agent of its own, with its own current tab.
import { useLive } from '../live/use-live.js';
import { Card, clock, Problem } from '../parts.js';

export function ClientsCard() {
  const status = useLive((c) => c.call('status'), ['client']);
  const clients = status.value?.clients;
  return (
    <Card title="Connected clients">
      {clients?.length === 0 ? <p className="quiet">No MCP client is connected.</p> : null}
      {clients?.length ? (
        <ul className="clients" aria-label="Connected clients">
          {clients.map((client) => (
            <li key={client.id}>
              <strong>{client.name}</strong> <span className="quiet">since {clock(client.since)}</span>
            </li>
          ))}
        </ul>
      ) : null}
      <Problem text={status.error} />
    </Card>
  );
}
