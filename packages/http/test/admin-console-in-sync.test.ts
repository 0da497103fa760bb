import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { ADMIN_CONSOLE_MODULE_PATH, adminConsoleModuleText } from '../scripts/admin-console-module';

// The console's files are served from src/admin-console-assets.generated.ts; `pnpm admin:build`
// rewrites it from packages/http/admin-console/. This fails when a file changed and it was not rebuilt.
test('src/admin-console-assets.generated.ts holds the files of admin-console/ (run `pnpm admin:build` after editing them)', () => {
  expect(readFileSync(ADMIN_CONSOLE_MODULE_PATH, 'utf8') === adminConsoleModuleText()).toBe(true);
});
