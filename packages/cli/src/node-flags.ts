/**
 * The V8 flags the API server is meant to run with (`pnpm start` passes them; set them with
 * `NODE_OPTIONS` when running `cartwright serve` yourself).
 *
 * `--max-semi-space-size=8`: V8 grows its young generation, under a fast allocation rate, up to
 * two semi-spaces of 16 MiB each by default, and keeps them committed. Capped at 8 MiB each, the
 * server's resident memory stays about 18 MiB lower (soak of the benchmarks: 152 → 134 MiB after
 * ~10 minutes of storefront flows and catalog pages), with no throughput or CPU difference
 * measurable on the 2-core benchmark machine. Smaller still (1–2 MiB) made catalog pages slower.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8'];
