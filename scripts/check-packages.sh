#!/bin/sh
# `pnpm check:packages`: every published package as it would be published — packed from a copy of
# the working tree in the state a fresh `pnpm install` leaves (JavaScript only: the declarations
# come from each package's `prepack`, no `pnpm build` needed), tarballs complete (export targets,
# declarations, bin, README, LICENSE), publint and arethetypeswrong — then a scratch app outside
# the repository installs those tarballs, runs the README's embedding snippet and type-checks an
# app under moduleResolution nodenext, node16 and bundler (scripts/scratch-app.mjs).
set -e
out="$(mktemp -d "${TMPDIR:-/tmp}/cartwright-tarballs-XXXXXX")"
trap 'rm -rf "$out"' EXIT
node scripts/check-packages.mjs --fresh --out "$out"
node scripts/scratch-app.mjs --tarballs "$out"
