#!/bin/sh
# publint and arethetypeswrong on every published package, as npm would pack it (run after
# `pnpm build`). Packages without a `require` export are ESM-only and checked as such.
set -e
for dir in packages/*/; do
  pkg="${dir}package.json"
  [ "$(node -p "require('./$pkg').private === true")" = true ] && continue
  profile=$(node -p "require('./$pkg').exports['.'].require ? 'node16' : 'esm-only'")
  echo "== $(node -p "require('./$pkg').name") (attw profile $profile)"
  pnpm -C "$dir" exec publint --strict
  pnpm -C "$dir" exec attw --pack . --profile "$profile" --format ascii >/dev/null || {
    pnpm -C "$dir" exec attw --pack . --profile "$profile" --format ascii
    exit 1
  }
done
echo "packages: publint and attw clean"
