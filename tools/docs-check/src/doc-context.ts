/**
 * What a code block of the docs may use without declaring it: the few names the docs use, always
 * with the same meaning, for what the reader already has at that point of the page — the engine
 * made as the page showed earlier, its storage, the API of one store, the API's handler, the
 * request being answered. Each is declared with the real type, so a block that calls them wrongly
 * still fails. Everything a block takes from a package must be imported in the block itself, as a
 * reader pasting it would need.
 *
 * Keep this list short: a name that only one page uses belongs in that page's block.
 */
export const DOC_CONTEXT = `
/** The engine, as \`await createEngine({ storage })\` made it (docs/embedding.md). */
declare const engine: import('@cartwright/core').Engine;
/** A storage, as \`sqliteStorage(…)\` or \`postgresStorage(…)\` made it (docs/storage.md). */
declare const storage: import('@cartwright/core/storage').Storage;
/** The store a key acts on, as \`await engine.scopeFor('test')\` returned it. */
declare const scope: import('@cartwright/core').Scope;
/** The API of that store, \`engine.forStore(scope)\`. */
declare const store: import('@cartwright/core').StoreApi;
/** A cart with items, as \`store.carts.create({ items })\` returned it. */
declare const cart: import('@cartwright/core').Cart;
/** The \`/v1\` API's handler, \`createApiHandler(engine)\`. */
declare const handler: import('@cartwright/http').CartwrightHandler;
/** The request a Node server is answering, and its response (\`createServer((req, res) => …)\`). */
declare const req: import('node:http').IncomingMessage;
declare const res: import('node:http').ServerResponse;
/** That request's body exactly as received (what webhook signatures are checked against). */
declare const rawBody: string;
/** Your mail service's client (SMTP, Postmark, SES, …): one \`send\`. */
declare const mailer: { send(message: { to: string; subject: string; text: string }): Promise<void> };
`;
