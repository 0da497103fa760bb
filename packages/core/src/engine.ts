import type { Engine } from './engine-interface';
import { buildEngine } from './engine-internals';
import type { EngineOptions } from './engine-options';

export type { Engine } from './engine-interface';
export { DEFAULT_ENGINE_CONFIG, type EngineOptions, manualPaymentProvider } from './engine-options';

/**
 * Creates the engine (see {@link Engine}): runs the migrations unless `migrate: false`, builds
 * every service once, and returns the front door.
 */
export async function createEngine(options: EngineOptions): Promise<Engine> {
  return buildEngine(options);
}
