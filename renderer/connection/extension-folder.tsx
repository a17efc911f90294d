// Where the unpacked extension is, with a copy button: the folder a person picks in chrome://extensions → Load
// unpacked (what `chrome-mcp extension-path` prints).
import { useState } from 'react';
import { Card } from '../parts.js';

export function ExtensionFolder({ path }: { path: string | null }) {
  const [copied, setCopied] = useState<'yes' | 'no'>();
  if (path === null) {
    return (
      <Card title="Load the extension">
        <p>
          The extension is not built where this chrome-mcp looks for it. In chrome-mcp's folder, run{' '}
          <code>npm run build</code>, then come back here.
        </p>
      </Card>
    );
  }
  const copy = () => {
    setCopied(undefined);
    // The clipboard may be refused (no focus, a policy): the path stays on screen to select by hand.
    navigator.clipboard.writeText(path).then(
      () => setCopied('yes'),
      () => setCopied('no'),
    );
  };
  return (
    <Card title="Load the extension">
      <p>
        In your Chrome, open <code>chrome://extensions</code>, turn on Developer mode, choose Load unpacked and pick
        this folder:
      </p>
      <p className="folder">
        <code data-testid="extension-path">{path}</code>
      </p>
      <div className="buttons">
        <button type="button" onClick={copy}>
          Copy path
        </button>
        <span className="quiet" role="status">
          {copied === 'yes' ? 'Copied.' : copied === 'no' ? 'Could not copy: select the path and copy it by hand.' : ''}
        </span>
      </div>
    </Card>
  );
}
