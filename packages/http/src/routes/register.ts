import type { Engine } from '@cartwright/core';

// Types `ctx.engine` in every route as the real engine.
declare module '../engine-port' {
  interface Register {
    engine: Engine;
  }
}
