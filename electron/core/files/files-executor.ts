// The core's side of the file tools, around whichever backend serves: an upload's paths are checked and resolved
// before any browser sees them, and a file a backend hands back is saved here, never by the browser.
import type { Executor } from '../../../shared/protocol/operations.js';
import { toolOf } from '../../../shared/tools/catalog.js';
import type { FileFolders } from './folders.js';
import { saveDownload, savedResult } from './save-download.js';
import { resolveUploadPaths } from './upload-paths.js';

export function withFiles(executor: Executor, folders: FileFolders): Executor {
  return {
    async run(op, args, ctx) {
      const files = toolOf(op)?.files;
      const sent = files === 'in' ? { ...args, paths: resolveUploadPaths(args['paths'] as string[], folders) } : args;
      const { file, ...result } = await executor.run(op, sent, ctx);
      // Only a tool that takes files out may leave one here; any other's is dropped unsaved.
      if (!file || files !== 'out') return result;
      return savedResult(saveDownload(file, folders.downloads));
    },
  };
}
