import { existsSync } from 'node:fs';

/**
 * Debian's Chromium for the browser tests (`apt-get install chromium`; .ci/run installs it), or
 * `CHROMIUM_PATH`. Missing → the test fails and says how to install it (never skipped).
 */
export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find(
    (path): path is string => path !== undefined && path !== '' && existsSync(path),
  );
  if (found === undefined) {
    throw new Error(
      'Chromium is missing: the admin console tests need a real browser. Install it with ' +
        '`apt-get install -y chromium` (CI does, in .ci/run) or set CHROMIUM_PATH.',
    );
  }
  return found;
}
