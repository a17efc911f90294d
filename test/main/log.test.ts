// The app's log writer: electron-log (its Node build standing in for the Electron one, which needs the binary) set up
// as the app sets it up, writing a real file. A secret planted in a line, an object or an error never reaches the file
// or the console; the file rotates at about 5 MB.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { fakeElectron } from './support/fake-electron.js';

vi.mock('electron', () => fakeElectron());
vi.mock('electron-log/main', async () => ({ default: (await import('electron-log/node')).default }));

const electronLog = (await import('electron-log/node')).default;
const { configureLogger, lineLog, LOG_MAX_BYTES, redactMessage } = await import('../../electron/main/log.js');

const TOKEN = 'ghp_16C7e42F292c6912E7710c838347Ae178B4a';
const BODY = TOKEN.slice(4);

describe('app log', () => {
  it('redacts a planted secret in every part of a message before the file sees it', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'app-log-')), 'main.log');
    const logger = configureLogger(electronLog.create({ logId: 'app-log-test' }), { file });
    const printed: string[] = [];
    logger.transports.console.writeFn = ({ message }) => void printed.push(message.data.join(' '));
    const log = lineLog(logger);

    log(`extension connected; curl -H 'Authorization: Bearer ${TOKEN}'`);
    logger.warn('config', { upstream: { credential: TOKEN } });
    logger.error(new Error(`bad key ${TOKEN}`));

    const written = readFileSync(file, 'utf8');
    expect(written).toContain('extension connected');
    expect(written).not.toContain(BODY);
    expect(written).toMatch(/\[redacted \d+ chars\]/);
    expect(written).toContain('bad key');
    expect(written).toContain('credential');
    expect(printed.join('\n')).not.toContain(BODY);
    expect(printed).toHaveLength(3);
  });

  it('rotates at about 5 MB', () => {
    const logger = configureLogger(electronLog.create({ logId: 'app-log-rotate' }), {
      file: join(tmpdir(), 'unused.log'),
    });
    expect(logger.transports.file.maxSize).toBe(LOG_MAX_BYTES);
    expect(LOG_MAX_BYTES).toBe(5 * 1024 * 1024);
  });

  it('renders non-string parts before redacting them', () => {
    const out = redactMessage({ data: [{ token: TOKEN }, 42], date: new Date(), level: 'info' });
    expect(out.data.join(' ')).not.toContain(BODY);
    expect(out.data[1]).toBe('42');
  });
});
