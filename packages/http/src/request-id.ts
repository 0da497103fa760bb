/**
 * A new request id: `req_` + 128 random bits as 32 hex digits. Uses Web Crypto's `randomUUID`
 * (available in Node ≥ 19 and every fetch runtime), the fastest random source on Node.
 */
export function newRequestId(): string {
  return 'req_' + crypto.randomUUID().replaceAll('-', '');
}
