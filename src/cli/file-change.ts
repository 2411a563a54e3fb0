/**
 * Writing a config file the person already has: show the change as a diff, keep a backup
 * (`<file>.mcpx-backup-<timestamp>`) before touching it, and never write when nothing changes.
 */
import { constants, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const CONTEXT = 3;

/** The backups `writeWithBackup` made of `file`, oldest first. */
export function backupsOf(file: string): string[] {
  const prefix = `${path.basename(file)}.mcpx-backup-`;
  const dir = path.dirname(file);
  if (!existsSync(dir)) return [];
  // By the UTC stamp, then by the "-N" of backups made within the same second.
  const order = (name: string): [string, number] => {
    const [stamp = "", n = "0"] = name.slice(prefix.length).split("-");
    return [stamp, Number(n)];
  };
  return readdirSync(dir)
    .filter((name) => name.startsWith(prefix))
    .sort((a, b) => {
      const [sa, na] = order(a);
      const [sb, nb] = order(b);
      return sa === sb ? na - nb : sa < sb ? -1 : 1;
    })
    .map((name) => path.join(dir, name));
}

/** The file's text, or "" when it does not exist yet. */
export function readIfExists(file: string): string {
  return existsSync(file) ? readFileSync(file, "utf8") : "";
}

/**
 * A unified diff of one edit: the lines between the common head and tail, with context.
 * (The edits mcpx makes are local, so one hunk shows them without a general diff.)
 */
export function diff(file: string, before: string, after: string): string {
  const a = before === "" ? [] : before.replace(/\n$/, "").split("\n");
  const b = after.replace(/\n$/, "").split("\n");
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const from = Math.max(0, head - CONTEXT);
  const aEnd = a.length - tail;
  const bEnd = b.length - tail;
  const after3 = Math.min(tail, CONTEXT);
  const lines = [
    `--- ${before === "" ? "/dev/null" : file}`,
    `+++ ${file}`,
    `@@ -${from + 1},${aEnd - from + after3} +${from + 1},${bEnd - from + after3} @@`,
    ...a.slice(from, head).map((l) => ` ${l}`),
    ...a.slice(head, aEnd).map((l) => `-${l}`),
    ...b.slice(head, bEnd).map((l) => `+${l}`),
    ...a.slice(aEnd, aEnd + after3).map((l) => ` ${l}`),
  ];
  return `${lines.join("\n")}\n`;
}

/**
 * Writes `text` to `file`, first copying an existing file to a fresh backup beside it (the copy
 * keeps the file's mode). A new file is created with `mode` (default: 0600, as the configs
 * mcpx writes may hold credentials).
 * @returns the backup's path, or undefined when there was no file to back up.
 */
export function writeWithBackup(file: string, text: string, now: Date = new Date(), mode = 0o600): string | undefined {
  let backup: string | undefined;
  if (existsSync(file)) {
    const stamp = now
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d+Z$/, "Z");
    for (let n = 0; ; n++) {
      backup = `${file}.mcpx-backup-${stamp}${n === 0 ? "" : `-${n}`}`;
      try {
        copyFileSync(file, backup, constants.COPYFILE_EXCL); // never replaces an older backup
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      }
    }
  } else {
    mkdirSync(path.dirname(file), { recursive: true });
  }
  // In place (not rename): a symlinked dotfile stays a symlink, and the file keeps its mode.
  writeFileSync(file, text, { mode });
  return backup;
}
