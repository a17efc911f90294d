// docs/control-api.md keeps up with the declaration: every call has its section, every error code its row.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONTROL_API } from '../../shared/control/api.js';
import { CONTROL_ERROR_CODES } from '../../shared/control/errors.js';

const doc = readFileSync(new URL('../../docs/control-api.md', import.meta.url), 'utf8');

describe('docs/control-api.md', () => {
  it.each(Object.keys(CONTROL_API))('documents the call %s', (name) => {
    expect(doc).toContain(`### \`${name}\``);
  });

  it.each(Object.entries(CONTROL_ERROR_CODES))('documents the error %s (HTTP %i)', (code, status) => {
    expect(doc).toContain(`| \`${code}\` | ${status} |`);
  });
});
