import type { Language, NotificationType } from '@task-manager/shared';
import { escapeHtml, textsFor, type ServerTexts } from '../i18n/texts.js';
import type { NotificationMailConfig } from './mail-config.js';
import { unsubscribeToken, type UnsubscribeScope } from './unsubscribe-token.js';

/** What a mail says about one notification. */
export interface MailItem {
  type: NotificationType;
  taskId: string | null;
  taskTitle: string;
  actorName: string | null;
  dueDate?: string;
}

export interface Recipient {
  id: string;
  email: string;
  name: string;
  role: string;
  /** The language they chose in the app; null: English. */
  language: Language | null;
}

/** One line saying what happened, in plain text, in the recipient's language. */
export function describe(item: MailItem, texts: ServerTexts = textsFor('en')): string {
  const who = item.actorName ?? texts.someone;
  return texts.notification.line(item.type, who, `"${item.taskTitle}"`, texts.day(item.dueDate));
}

/**
 * The app's page of a task for this person (apps/web/src/config/paths.ts): admins open
 * /admin/tasks/:id, members /user/task-details/:id. Someone removed from a task gets the app's
 * start page: the task is no longer theirs to open.
 */
export function taskLink(config: NotificationMailConfig, recipient: Recipient, item: MailItem) {
  if (!item.taskId || item.type === 'unassigned') return `${config.publicUrl}/`;
  const id = encodeURIComponent(item.taskId);
  return recipient.role === 'admin'
    ? `${config.publicUrl}/admin/tasks/${id}`
    : `${config.publicUrl}/user/task-details/${id}`;
}

export function unsubscribeLink(
  config: NotificationMailConfig,
  userId: string,
  scope: UnsubscribeScope,
): string {
  const token = unsubscribeToken(config.secret, userId, scope);
  return `${config.publicUrl}/api/notifications/unsubscribe?token=${encodeURIComponent(token)}`;
}

/** The List-Unsubscribe headers of RFC 2369 and RFC 8058 (one-click, by POST). */
function listHeaders(link: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

function footerText(texts: ServerTexts, link: string, what: string) {
  const footer = texts.notification.footer(what);
  return `\n--\n${footer.text} ${footer.link}: ${link}\n`;
}

function footerHtml(texts: ServerTexts, link: string, what: string) {
  const footer = texts.notification.footer(what);
  return (
    `<hr><p style="color:#666;font-size:12px">${escapeHtml(footer.text)} ` +
    `<a href="${escapeHtml(link)}">${escapeHtml(footer.link)}</a>.</p>`
  );
}

/** The mail sent at once for one notification. */
export function instantMail(config: NotificationMailConfig, recipient: Recipient, item: MailItem) {
  const texts = textsFor(recipient.language);
  const link = taskLink(config, recipient, item);
  const unsubscribe = unsubscribeLink(config, recipient.id, item.type);
  const what = texts.notification.stopThese;
  const line = describe(item, texts);
  const hello = texts.hello(recipient.name);
  return {
    to: recipient.email,
    subject: `${texts.notification.subject[item.type]}: ${item.taskTitle}`,
    text:
      `${hello}\n\n${line}\n\n${texts.notification.open}: ${link}\n` +
      footerText(texts, unsubscribe, what),
    html:
      `<p>${escapeHtml(hello)}</p><p>${escapeHtml(line)}</p>` +
      `<p><a href="${escapeHtml(link)}">${escapeHtml(texts.notification.openTask)}</a></p>` +
      footerHtml(texts, unsubscribe, what),
    headers: listHeaders(unsubscribe),
  };
}

/** The daily digest: every notification waiting for it, one line and link each. */
export function digestMail(
  config: NotificationMailConfig,
  recipient: Recipient,
  items: MailItem[],
) {
  const texts = textsFor(recipient.language);
  const unsubscribe = unsubscribeLink(config, recipient.id, 'digest');
  const what = texts.notification.stopDigest;
  const lines = items.map((item) => ({
    text: describe(item, texts),
    link: taskLink(config, recipient, item),
  }));
  const hello = texts.hello(recipient.name);
  const open = escapeHtml(texts.notification.open);
  return {
    to: recipient.email,
    subject: texts.digest.subject(items.length),
    text:
      `${hello}\n\n${texts.digest.intro}\n\n` +
      lines.map((l) => `- ${l.text}\n  ${l.link}`).join('\n') +
      `\n${footerText(texts, unsubscribe, what)}`,
    html:
      `<p>${escapeHtml(hello)}</p><p>${escapeHtml(texts.digest.intro)}</p><ul>` +
      lines
        .map((l) => `<li>${escapeHtml(l.text)} <a href="${escapeHtml(l.link)}">${open}</a></li>`)
        .join('') +
      `</ul>${footerHtml(texts, unsubscribe, what)}`,
    headers: listHeaders(unsubscribe),
  };
}
