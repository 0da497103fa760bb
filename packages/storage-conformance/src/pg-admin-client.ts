import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';
import { connect, type Socket } from 'node:net';

/**
 * Just enough of the PostgreSQL wire protocol (v3, simple queries) to run administrative
 * statements such as CREATE DATABASE from test helpers. This private package may not depend on
 * a driver, and the statements need no parameters or result rows. Authentication: trust,
 * cleartext password, MD5 and SCRAM-SHA-256; no TLS (test servers are local or in CI).
 */
export async function runAdminStatements(url: string, statements: readonly string[]): Promise<void> {
  const target = new URL(url);
  const user = decodeURIComponent(target.username || 'postgres');
  const password = decodeURIComponent(target.password);
  const database = decodeURIComponent(target.pathname.replace(/^\//, '')) || user;
  const host = target.hostname || '127.0.0.1';
  const port = Number(target.port || 5432);
  const socket = connect({ host: host.replace(/^\[|\]$/g, ''), port });
  const reader = new MessageReader(socket);
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    socket.write(startupMessage({ user, database, client_encoding: 'UTF8' }));
    await authenticate(socket, reader, user, password);
    await untilReady(reader);
    for (const statement of statements) {
      socket.write(message('Q', cstring(statement)));
      await untilReady(reader);
    }
    socket.write(message('X', Buffer.alloc(0)));
  } finally {
    socket.end();
    socket.destroy();
  }
}

interface Message {
  type: string;
  body: Buffer;
}

class MessageReader {
  #buffer = Buffer.alloc(0);
  #waiting: Array<{ resolve: (m: Message) => void; reject: (e: Error) => void }> = [];
  #queue: Message[] = [];
  #error: Error | undefined;

  constructor(socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.#buffer = Buffer.concat([this.#buffer, chunk]);
      while (this.#buffer.length >= 5) {
        const length = this.#buffer.readInt32BE(1);
        if (this.#buffer.length < 1 + length) break;
        const msg = {
          type: String.fromCharCode(this.#buffer[0]!),
          body: this.#buffer.subarray(5, 1 + length),
        };
        this.#buffer = this.#buffer.subarray(1 + length);
        const waiter = this.#waiting.shift();
        if (waiter) waiter.resolve(msg);
        else this.#queue.push(msg);
      }
    });
    const fail = (error: Error) => {
      this.#error = error;
      for (const waiter of this.#waiting.splice(0)) waiter.reject(error);
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('connection closed by the server')));
  }

  next(): Promise<Message> {
    const queued = this.#queue.shift();
    if (queued) return Promise.resolve(queued);
    if (this.#error) return Promise.reject(this.#error);
    return new Promise((resolve, reject) => this.#waiting.push({ resolve, reject }));
  }
}

function cstring(text: string): Buffer {
  return Buffer.concat([Buffer.from(text, 'utf8'), Buffer.from([0])]);
}

function int32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeInt32BE(value);
  return buffer;
}

function message(type: string, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(type, 'ascii'), int32(body.length + 4), body]);
}

function startupMessage(parameters: Record<string, string>): Buffer {
  const body = Buffer.concat([
    int32(196608), // protocol 3.0
    ...Object.entries(parameters).flatMap(([key, value]) => [cstring(key), cstring(value)]),
    Buffer.from([0]),
  ]);
  return Buffer.concat([int32(body.length + 4), body]);
}

function serverError(body: Buffer): Error {
  const fields: Record<string, string> = {};
  let offset = 0;
  while (offset < body.length && body[offset] !== 0) {
    const code = String.fromCharCode(body[offset]!);
    const end = body.indexOf(0, offset + 1);
    fields[code] = body.subarray(offset + 1, end).toString('utf8');
    offset = end + 1;
  }
  return Object.assign(new Error(`PostgreSQL: ${fields.M ?? 'error'}`), { code: fields.C });
}

async function authenticate(
  socket: Socket,
  reader: MessageReader,
  user: string,
  password: string,
): Promise<void> {
  let scram: { nonce: string; clientFirstBare: string; serverSignature?: Buffer } | undefined;
  for (;;) {
    const msg = await reader.next();
    if (msg.type === 'E') throw serverError(msg.body);
    if (msg.type !== 'R') throw new Error(`unexpected message '${msg.type}' during authentication`);
    const kind = msg.body.readInt32BE(0);
    if (kind === 0) return; // AuthenticationOk
    if (kind === 3) {
      socket.write(message('p', cstring(password)));
    } else if (kind === 5) {
      const salt = msg.body.subarray(4, 8);
      const inner = createHash('md5')
        .update(password + user)
        .digest('hex');
      const outer = createHash('md5')
        .update(Buffer.concat([Buffer.from(inner), salt]))
        .digest('hex');
      socket.write(message('p', cstring(`md5${outer}`)));
    } else if (kind === 10) {
      const mechanisms = msg.body.subarray(4).toString('utf8').split('\0');
      if (!mechanisms.includes('SCRAM-SHA-256'))
        throw new Error(`unsupported SASL mechanisms: ${mechanisms.join(', ')}`);
      const nonce = randomBytes(18).toString('base64');
      const clientFirstBare = `n=*,r=${nonce}`;
      const initial = Buffer.from(`n,,${clientFirstBare}`, 'utf8');
      socket.write(message('p', Buffer.concat([cstring('SCRAM-SHA-256'), int32(initial.length), initial])));
      scram = { nonce, clientFirstBare };
    } else if (kind === 11 && scram) {
      const serverFirst = msg.body.subarray(4).toString('utf8');
      const attrs = Object.fromEntries(serverFirst.split(',').map((part) => [part[0], part.slice(2)]));
      const serverNonce = attrs.r ?? '';
      if (!serverNonce.startsWith(scram.nonce)) throw new Error('SCRAM: server nonce mismatch');
      const salted = pbkdf2Sync(
        password.normalize('NFKC'),
        Buffer.from(attrs.s ?? '', 'base64'),
        Number(attrs.i),
        32,
        'sha256',
      );
      const clientKey = createHmac('sha256', salted).update('Client Key').digest();
      const storedKey = createHash('sha256').update(clientKey).digest();
      const clientFinalWithoutProof = `c=biws,r=${serverNonce}`;
      const authMessage = `${scram.clientFirstBare},${serverFirst},${clientFinalWithoutProof}`;
      const signature = createHmac('sha256', storedKey).update(authMessage).digest();
      const proof = Buffer.from(clientKey.map((byte, i) => byte ^ signature[i]!));
      const serverKey = createHmac('sha256', salted).update('Server Key').digest();
      scram.serverSignature = createHmac('sha256', serverKey).update(authMessage).digest();
      socket.write(
        message('p', Buffer.from(`${clientFinalWithoutProof},p=${proof.toString('base64')}`, 'utf8')),
      );
    } else if (kind === 12 && scram?.serverSignature) {
      const verifier = Buffer.from(msg.body.subarray(4).toString('utf8').replace(/^v=/, ''), 'base64');
      if (
        verifier.length !== scram.serverSignature.length ||
        !timingSafeEqual(verifier, scram.serverSignature)
      ) {
        throw new Error('SCRAM: server signature mismatch');
      }
    } else {
      throw new Error(`unsupported authentication request ${kind}`);
    }
  }
}

/** Reads until ReadyForQuery, throwing the first ErrorResponse seen on the way. */
async function untilReady(reader: MessageReader): Promise<void> {
  let error: Error | undefined;
  for (;;) {
    const msg = await reader.next();
    if (msg.type === 'E') error ??= serverError(msg.body);
    if (msg.type === 'Z') {
      if (error) throw error;
      return;
    }
  }
}
