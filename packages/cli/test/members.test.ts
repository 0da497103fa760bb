import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import {
  runCartwright as cartwright,
  DATABASE_TARGETS,
  eventually,
  freshDatabaseUrl,
  type ServeProcess,
  startServe,
  stop,
} from './support/serve-process';

/**
 * The first admin of a new installation (decisions §23, docs/back-office.md), with real CLI
 * processes: `cartwright serve` on a database without members prints how to create one;
 * `cartwright members create --email … --role admin` prints the one-time link
 * `<base url>/admin/#/accept-invite?token=…`, whose token the served API accepts for a staff
 * session; once a member exists the hint is gone.
 */

const HINT = 'No admin yet: run `cartwright members create --email you@example.com --role admin`';
const LINK = /^(\S+)\/admin\/#\/accept-invite\?token=(mit_[A-Za-z0-9_-]{22,})$/;

describe.each(DATABASE_TARGETS)('cartwright members create and the first-start hint [%s]', (target) => {
  const dir = mkdtempSync(join(tmpdir(), 'cartwright-members-'));
  const servers: ServeProcess[] = [];
  afterAll(async () => {
    await Promise.all(servers.map(stop));
    rmSync(dir, { recursive: true, force: true });
  });

  test('serve without members prints the hint once; members create prints a link whose token signs the admin in; then the hint is gone', async () => {
    const db = await freshDatabaseUrl(target, dir);
    const first = await startServe(db);
    servers.push(first);
    await eventually(async () => (first.output().includes(HINT) ? true : undefined), 10_000, 'the hint');
    expect(
      first
        .output()
        .split('\n')
        .filter((line) => line.includes('members create')),
    ).toHaveLength(1);

    const made = cartwright(
      ['members', 'create', '--email', 'Owner@Example.com', '--role', 'admin', '--base-url', `${first.url}/`],
      { DATABASE_URL: db },
    );
    expect(made.code, made.out).toBe(0);
    const link = made.out.split('\n')[0] as string;
    const match = LINK.exec(link);
    expect(match, link).not.toBeNull();
    expect(match?.[1]).toBe(first.url);
    const token = match?.[2] as string;
    expect(made.out).toContain('admin Owner@Example.com');

    // The token of the link, as the console's page sends it.
    const accepted = await fetch(`${first.url}/v1/admin/session/accept-invite`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cartwright-csrf': '1' },
      body: JSON.stringify({ token, password: 'a long admin password' }),
    });
    expect(accepted.status, await accepted.clone().text()).toBe(200);
    const cookie = (accepted.headers.get('set-cookie') ?? '').split(';')[0] as string;
    expect(cookie).toMatch(/^cartwright_session=sst_/);
    const members = await fetch(`${first.url}/v1/admin/organization/members`, { headers: { cookie } });
    expect(members.status).toBe(200);
    const list = (await members.json()) as {
      data: { email: string; role: string; accepted_at: string | null }[];
    };
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({ email: 'Owner@Example.com', role: 'admin' });
    expect(list.data[0]?.accepted_at).not.toBeNull();

    // The same e-mail again: refused in one line, exit 2.
    const again = cartwright(['members', 'create', '--email', 'owner@example.com'], { DATABASE_URL: db });
    expect(again.code).toBe(2);
    expect(again.out).toContain('cartwright: duplicate_email (email)');

    await stop(first);
    servers.splice(servers.indexOf(first), 1);
    const second = await startServe(db);
    servers.push(second);
    await new Promise((r) => setTimeout(r, 300));
    expect(second.output()).toContain('listening on');
    expect(second.output()).not.toContain(HINT);
  }, 120_000);

  test('the link defaults to http://localhost:PORT; member is the default role; bad flags exit 2 with the usage', async () => {
    const db = await freshDatabaseUrl(target, dir, 'other.db');
    const made = cartwright(['members', 'create', '--email=clerk@example.com'], {
      DATABASE_URL: db,
      PORT: '4321',
    });
    expect(made.code, made.out).toBe(0);
    expect(made.out.split('\n')[0]).toMatch(/^http:\/\/localhost:4321\/admin\/#\/accept-invite\?token=mit_/);
    expect(made.out).toContain('member clerk@example.com');

    const noEmail = cartwright(['members', 'create', '--role', 'admin'], { DATABASE_URL: db });
    expect(noEmail.code).toBe(2);
    expect(noEmail.out).toContain('members create needs --email');
    expect(noEmail.out).toContain('Usage: cartwright members create');
    const badRole = cartwright(['members', 'create', '--email', 'x@example.com', '--role', 'owner'], {
      DATABASE_URL: db,
    });
    expect(badRole.code).toBe(2);
    expect(badRole.out).toContain("--role must be admin or member, got 'owner'");
    const badEmail = cartwright(['members', 'create', '--email', 'not-an-email'], { DATABASE_URL: db });
    expect(badEmail.code).toBe(2);
    expect(badEmail.out).toContain('cartwright: parameter_invalid (email)');
    const help = cartwright(['members', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage: cartwright members create --email EMAIL');
    const unknown = cartwright(['members', 'delete']);
    expect(unknown.code).toBe(2);
  }, 120_000);
});
