#!/bin/sh
# `pnpm check:packages` (after `pnpm build`): every published package as it would be published —
# packed tarballs complete (export targets, bin, README, LICENSE), publint and arethetypeswrong —
# then a scratch app outside the repository installs those tarballs and runs the README's
# embedding snippet (scripts/scratch-app.mjs).
set -e
out="$(mktemp -d "${TMPDIR:-/tmp}/cartwright-tarballs-XXXXXX")"
trap 'rm -rf "$out"' EXIT
node scripts/check-packages.mjs --out "$out"
node scripts/scratch-app.mjs --tarballs "$out"
