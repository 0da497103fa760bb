import type { Engine } from '@cartwright/core';
import { createApiHandler } from '@cartwright/http';
import { createHonoApp } from '@cartwright/http/hono';
import { Hono } from 'hono';
import type { Mailer } from './mailer';
import { sendPasswordResetEmails } from './reset-emails';

export interface AppOptions {
  engine: Engine;
  mailer: Mailer;
  /** The storefront page that takes the reset token (`?token=prt_…`) and asks for a new password. */
  resetPageUrl: string;
}

/**
 * A Hono app with Cartwright's `/v1` API mounted — the account routes included (register, sign in
 * and out, password change, password reset) — and the reset e-mails wired in process.
 */
export function createApp(options: AppOptions): Hono {
  sendPasswordResetEmails(options.engine, options.mailer, { resetPageUrl: options.resetPageUrl });
  const app = new Hono();
  app.get('/health', (c) => c.json({ ok: true }));
  return app.route('/', createHonoApp(createApiHandler(options.engine)));
}
