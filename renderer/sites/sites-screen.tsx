// Allowed sites: the person's standing rules (add, change level, remove), the default for other sites, the
// downloads switch and the opt-in tool sets — each change is one `policy.set`, applied at once — and, read-only, this
// run's grants and the built-in blind list no rule reaches past.
import { useState } from 'react';
import type { PolicyEdit, PolicyView } from '../../shared/control/policy-view.js';
import { RULE_LEVELS, type RuleLevel } from '../../shared/policy/levels.js';
import { TOOL_CAPS, type ToolCap } from '../../shared/policy/tool-caps.js';
import type { RuleText } from '../../shared/policy/transfer.js';
import { useLive } from '../live/use-live.js';
import { Card, Problem } from '../parts.js';
import { type Edit, usePolicyEdit } from './use-policy-edit.js';

const LEVEL_MEANING: Record<RuleLevel, string> = {
  blocked: 'blocked: never opened or read',
  read: 'read: open and read pages',
  act: 'act: click, type and submit too',
  trusted: 'trusted: also run scripts; risky acts are not held',
};

// What each opt-in set adds, in the words of what the agent could then do (the README's tool table lists them all).
const TOOL_SET_MEANING: Record<ToolCap, string> = {
  files: 'Files: save downloads into the app’s folder and read them',
  devtools: 'Developer tools: console, network, mocks and replays, an app’s API, inspect, sources, performance',
  extra: 'More page tools: frames, HTML, links, drag, select, scroll, resize, batches, switching tabs',
};

export function SitesScreen() {
  const policy = useLive((client) => client.call('policy.get'), ['policy']);
  const save = usePolicyEdit(policy);
  const view = policy.value;
  if (!view) return <Problem text={policy.error} />;
  // Read from the event now: React puts a controlled input back to the shown value as soon as the handler returns.
  const setDefault = (value: PolicyEdit['default']) => save.apply(() => ({ default: value }));
  const setDownloads = (downloads: boolean) => save.apply(() => ({ downloads }));
  const setToolSet = (set: ToolCap, on: boolean) =>
    save.apply((latest) => ({
      tools: TOOL_CAPS.filter((each) => (each === set ? on : latest.tools.includes(each))),
    }));

  return (
    <div className="screen">
      <h1>Allowed sites</h1>
      <p className="lead">
        What the agent may do on each site. Changes apply to its very next call and are saved to{' '}
        <code>{view.file}</code>.
      </p>
      <Card title="Your rules">
        <RuleList rules={view.rules} onEdit={save.apply} />
        <AddRule onAdd={(rule) => save.apply((latest) => ({ rules: [...latest.rules, rule] }))} />
        <Problem text={save.error} />
      </Card>
      <Card title="Everywhere else">
        <label className="row">
          Sites without a rule:
          <select
            aria-label="Sites without a rule"
            value={view.default}
            onChange={(event) => void setDefault(event.target.value as PolicyEdit['default'])}
          >
            <option value="ask">ask me</option>
            <option value="blocked">blocked</option>
          </select>
        </label>
        <label className="row">
          <input
            type="checkbox"
            checked={view.downloads}
            onChange={(event) => void setDownloads(event.target.checked)}
          />
          Let the agent download files
        </label>
      </Card>
      <Card title="Tools the agent may use">
        <p className="quiet">
          Most sessions need only the default tools, and every tool listed costs the model tokens on each turn. Switch a
          set on and connected agents see it at once.
        </p>
        {TOOL_CAPS.map((set) => (
          <label className="row switch" key={set}>
            <input
              type="checkbox"
              checked={view.tools.includes(set)}
              onChange={(event) => void setToolSet(set, event.target.checked)}
            />
            <span>{TOOL_SET_MEANING[set]}</span>
          </label>
        ))}
      </Card>
      <ReadOnly view={view} />
    </div>
  );
}

/** Rules are edited by index into the latest accepted list, which is the one shown. */
function RuleList({ rules, onEdit }: { rules: RuleText[]; onEdit: (edit: Edit) => void }) {
  if (rules.length === 0)
    return <p className="quiet">No rules yet: every site is asked about or blocked, as set below.</p>;
  return (
    <ul className="rules">
      {rules.map((rule, index) => (
        <li key={`${rule.site}-${index}`}>
          <span className="site">{rule.site}</span>
          <LevelSelect
            label={`Level for ${rule.site}`}
            value={rule.level}
            onChange={(level) =>
              onEdit((latest) => ({ rules: latest.rules.map((old, i) => (i === index ? { ...old, level } : old)) }))
            }
          />
          <button
            type="button"
            className="quiet-button"
            aria-label={`Remove ${rule.site}`}
            onClick={() => onEdit((latest) => ({ rules: latest.rules.filter((_, i) => i !== index) }))}
          >
            Remove
          </button>
        </li>
      ))}
    </ul>
  );
}

function AddRule({ onAdd }: { onAdd: (rule: RuleText) => Promise<boolean> }) {
  const [site, setSite] = useState('');
  const [level, setLevel] = useState<RuleLevel>('act');
  return (
    <form
      className="row add-rule"
      onSubmit={(event) => {
        event.preventDefault();
        // The field keeps what was typed when the core refuses it, so the person can fix it in place.
        void onAdd({ site: site.trim(), level }).then((added) => added && setSite(''));
      }}
    >
      <input
        aria-label="Site"
        placeholder="example.com, *.example.com, localhost:3000"
        value={site}
        onChange={(event) => setSite(event.target.value)}
        required
      />
      <LevelSelect label="Level for the new site" value={level} onChange={setLevel} />
      <button type="submit">Add site</button>
    </form>
  );
}

function LevelSelect({
  label,
  value,
  onChange,
}: {
  label: string;
  value: RuleLevel;
  onChange: (level: RuleLevel) => void;
}) {
  return (
    <select aria-label={label} value={value} onChange={(event) => onChange(event.target.value as RuleLevel)}>
      {RULE_LEVELS.map((level) => (
        <option key={level} value={level} title={LEVEL_MEANING[level]}>
          {level}
        </option>
      ))}
    </select>
  );
}

function ReadOnly({ view }: { view: PolicyView }) {
  return (
    <>
      <Card title="This run only">
        {view.grants.length ? (
          <ul className="rules">
            {view.grants.map((grant) => (
              <li key={`${grant.site}-${grant.level}`}>
                <span className="site">{grant.site}</span>
                <span className={`level level-${grant.level}`}>{grant.level}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="quiet">No grants: none were given on the command line or by an "Allow once".</p>
        )}
      </Card>
      <Card title="Always blind">
        <p className="quiet">The agent never sees these, whatever the rules say.</p>
        {Object.entries(view.blind).map(([group, sites]) => (
          <details key={group}>
            <summary>
              {group} ({sites.length})
            </summary>
            <p className="blind-list">{sites.join(', ')}</p>
          </details>
        ))}
      </Card>
    </>
  );
}
