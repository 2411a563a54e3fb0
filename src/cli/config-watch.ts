/**
 * Hot reload for `mcpx serve`: the config file is read again when it changes (watched through
 * its folder, since editors replace a file rather than write it in place), on SIGHUP, or when
 * `mcpx reload` asks; a file that does not load keeps the config in force, saying why.
 */
import { watch, type FSWatcher } from "node:fs";
import { basename, dirname } from "node:path";
import type { Config } from "../config/types.js";
import type { Logger } from "../util/log.js";

/** Changes this close together are one (an editor's save is several writes and renames). */
const SETTLE_MS = 250;

export interface ConfigWatch {
  close(): void;
}

export function watchConfig(file: string, load: () => Promise<Config>, apply: (config: Config) => void, log: Logger): ConfigWatch {
  let timer: NodeJS.Timeout | undefined;
  let running = Promise.resolve();
  const reload = (why: string): void => {
    running = running.then(async () => {
      try {
        apply(await load());
      } catch (error) {
        log.warn("the config file does not load; the config in force stays", { why, error: error instanceof Error ? error.message : String(error) });
      }
    });
  };
  const soon = (why: string): void => {
    clearTimeout(timer);
    timer = setTimeout(() => reload(why), SETTLE_MS);
    timer.unref();
  };
  const name = basename(file);
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dirname(file), (_event, changed) => {
      if (changed === null || changed === name) soon("the file changed");
    });
    watcher.unref();
  } catch (error) {
    log.warn("the config file cannot be watched; SIGHUP or mcpx reload still reload it", { error: error instanceof Error ? error.message : String(error) });
  }
  const onHangup = (): void => reload("SIGHUP");
  process.on("SIGHUP", onHangup);
  return {
    close: () => {
      clearTimeout(timer);
      watcher?.close();
      process.off("SIGHUP", onHangup);
    },
  };
}
