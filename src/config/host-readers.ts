/** The readers of the hosts whose files are shaped differently from the `mcpServers` convention. */
import type { HostReader } from "./document.js";
import type { HostName } from "./host-formats.js";
import { readCodex } from "./hosts/codex.js";
import { readContinue } from "./hosts/continue.js";
import { readGemini } from "./hosts/gemini.js";
import { readGoose } from "./hosts/goose.js";
import { readZed } from "./hosts/zed.js";

export const HOST_READERS: Partial<Record<HostName, HostReader>> = {
  codex: readCodex,
  zed: readZed,
  gemini: readGemini,
  continue: readContinue,
  goose: readGoose,
};
