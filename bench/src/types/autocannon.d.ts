/** The slice of autocannon 8's API the bench uses (the package ships no types). */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  export interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
  }

  export interface AutocannonRequestStep<C> extends AutocannonRequest {
    setupRequest?: (request: AutocannonRequest, context: C) => AutocannonRequest | null | undefined;
    onResponse?: (status: number, body: string, context: C, headers: Record<string, string>) => void;
  }

  export interface AutocannonOptions<C = Record<string, unknown>> {
    url: string | string[];
    connections?: number;
    duration?: number;
    amount?: number;
    pipelining?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: Array<AutocannonRequestStep<C>>;
    initialContext?: C;
  }

  export interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p99: number;
    max: number;
  }

  export interface AutocannonResult {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    requests: Histogram & { total: number };
    latency: Histogram;
  }

  export interface Instance extends EventEmitter, PromiseLike<AutocannonResult> {
    stop(): void;
  }

  function autocannon<C = Record<string, unknown>>(options: AutocannonOptions<C>): Instance;
  export default autocannon;
}
