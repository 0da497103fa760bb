import type { Engine } from '@cartwright/core';
import type { Mailer } from './mailer';

export interface ResetEmailOptions {
  /**
   * The storefront page where the shopper chooses a new password; the reset token is added as
   * `?token=prt_…`. That page sends `{ token, new_password }` to
   * `POST /v1/storefront/customers/password-reset/confirm` with the publishable key.
   */
  resetPageUrl: string;
  /** Called when the mailer fails (default: logged). The shopper can ask for a new link. */
  onError?: (error: unknown) => void;
}

/**
 * Mails the password reset link whenever a customer asks for one: subscribes to
 * `customer.password_reset_requested` in process. The engine emits it after the reset token is
 * committed, with `data: { customer_id, email, token, expires_at }` (typed); the token is valid one
 * hour, single use, and a newer request voids it. Only the host sees the token — the API answers
 * `{ "success": true }` whether or not the e-mail has an account. Returns the unsubscribe function.
 *
 * Listeners are called synchronously and not retried, so the send runs in the background with its
 * own error handling. (A separate service would instead subscribe a webhook that names the event:
 * `POST /v1/admin/webhooks { url, events: ["customer.password_reset_requested"] }`.)
 */
export function sendPasswordResetEmails(
  engine: Engine,
  mailer: Mailer,
  options: ResetEmailOptions,
): () => void {
  const onError = options.onError ?? ((error) => console.error('password reset e-mail not sent', error));
  return engine.events.on('customer.password_reset_requested', (event) => {
    const { email, token, expires_at } = event.data;
    const link = new URL(options.resetPageUrl);
    link.searchParams.set('token', token);
    const text = [
      'Someone asked to reset the password of your account.',
      `Choose a new password here: ${link}`,
      `The link works once, until ${expires_at}. If it was not you, ignore this e-mail.`,
    ].join('\n\n');
    mailer.send({ to: email, subject: 'Reset your password', text }).catch(onError);
  });
}
