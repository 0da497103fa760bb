/**
 * A FIFO async mutex: `run` executes callbacks one at a time in call order. Used to queue
 * transactions of several SQLite connections of one process on one file (see sqlite-storage.ts)
 * and nested transaction calls inside one transaction.
 */
export class AsyncMutex {
  #tail: Promise<void> = Promise.resolve();

  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(fn);
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
