/**
 * Writes `src/admin-console-assets.generated.ts` from `packages/http/admin-console/` (see
 * admin-console-module.ts) and prints each file's size, plain and gzipped. Run from the
 * repository root with `pnpm admin:build` after editing the console's files; the file is committed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import {
  ADMIN_CONSOLE_FILES,
  ADMIN_CONSOLE_MODULE_PATH,
  ADMIN_CONSOLE_SOURCE_DIR,
  adminConsoleModuleText,
} from './admin-console-module';

writeFileSync(ADMIN_CONSOLE_MODULE_PATH, adminConsoleModuleText());
let total = 0;
let totalGzip = 0;
for (const name of ADMIN_CONSOLE_FILES) {
  const bytes = readFileSync(ADMIN_CONSOLE_SOURCE_DIR + name);
  const gzipped = gzipSync(bytes, { level: 9 }).length;
  total += bytes.length;
  totalGzip += gzipped;
  console.log(`${name}: ${bytes.length} bytes, ${gzipped} gzipped`);
}
console.log(`total: ${total} bytes, ${totalGzip} gzipped`);
