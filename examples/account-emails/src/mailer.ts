/** An e-mail as the app hands it to its mail service. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** What the app needs of a mail service (SMTP, Postmark, SES, Resend, …): one `send`. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** A mailer that sends nothing and keeps every message in `outbox` (for tests and local runs). */
export function createStubMailer(): Mailer & { outbox: MailMessage[] } {
  const outbox: MailMessage[] = [];
  return {
    outbox,
    async send(message) {
      outbox.push(message);
    },
  };
}
