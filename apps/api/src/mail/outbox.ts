import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.js';
import { insertMail } from './repository.js';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers, such as List-Unsubscribe and List-Unsubscribe-Post (RFC 8058). */
  headers?: Record<string, string>;
}

/**
 * Puts a mail in the outbox, in the caller's transaction: it is sent (by the MailSender) only if
 * what caused it commits, and it is not lost if the process stops before sending.
 */
export async function enqueueMail(trx: Kysely<Database>, mail: OutgoingMail): Promise<void> {
  const now = new Date().toISOString();
  await insertMail(trx, {
    id: randomUUID(),
    recipient: mail.to,
    subject: mail.subject,
    text_body: mail.text,
    html_body: mail.html ?? null,
    headers: mail.headers ? JSON.stringify(mail.headers) : null,
    created_at: now,
    next_attempt_at: now,
  });
}
