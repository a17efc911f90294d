// The tray app's log: electron-log to a rotating file and the console, every line of every transport through the
// redactor first (ours, a dependency's, an uncaught error's), in the core's one-line `Log` shape.
import { inspect } from 'node:util';
import electronLog from 'electron-log/main';
import type { Log } from '../core/log.js';
import { redactText } from '../../shared/redact/text.js';

/** What the app sets up of a logger (electron-log's Electron build here; its Node build in tests). */
type Logger = Pick<typeof electronLog, 'hooks' | 'transports' | 'info'>;
type LogMessage = Parameters<Logger['hooks'][number]>[0];

/** About 5 MB a file; electron-log then keeps the one before it as `main.old.log`. */
export const LOG_MAX_BYTES = 5 * 1024 * 1024;

/** Every part of a message as redacted text: objects and errors are rendered first, so a secret inside one is masked too. */
export function redactMessage(message: LogMessage): LogMessage {
  const data = message.data.map((part: unknown) =>
    redactText(typeof part === 'string' ? part : inspect(part, { depth: 4, breakLength: Infinity })),
  );
  return { ...message, data };
}

/** Sets up a logger: redaction as the first hook, file rotation, and (for tests) where the file goes. */
export function configureLogger<L extends Logger>(logger: L, options: { file?: string } = {}): L {
  logger.hooks.unshift(redactMessage);
  logger.transports.file.maxSize = LOG_MAX_BYTES;
  logger.transports.file.format = '[{y}-{m}-{d} {h}:{i}:{s}.{ms}] [{level}] {text}';
  const { file } = options;
  if (file !== undefined) logger.transports.file.resolvePathFn = () => file;
  logger.transports.console.format = '[chrome-mcp] {text}';
  return logger;
}

/** The core's `Log` over a configured logger. */
export function lineLog(logger: Logger): Log {
  return (line) => logger.info(line);
}

let configured: typeof electronLog | undefined;

/** The app's logger, configured once; uncaught errors and rejections go through it (and so through the redactor). */
export function appLogger(): typeof electronLog {
  if (configured) return configured;
  configured = configureLogger(electronLog);
  configured.errorHandler.startCatching({ showDialog: false });
  return configured;
}

export const log: Log = (line) => appLogger().info(line);

/** The current log file, for "Open logs". */
export function logFilePath(): string {
  return appLogger().transports.file.getFile().path;
}
