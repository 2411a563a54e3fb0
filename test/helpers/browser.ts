/**
 * Debian's Chromium for the page tests, headless and kept off the network (the machine's closed
 * network refuses Chromium's own background connections, and they would slow every start).
 */
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Is Chromium here? When not, says so for `testFile`, whose browser tests are then skipped. */
export function haveChromium(testFile: string): boolean {
  const here = existsSync(CHROMIUM);
  if (!here) console.warn(`SKIPPED ${testFile}: ${CHROMIUM} is missing (install Debian's chromium: apt-get install -y chromium)`);
  return here;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}
