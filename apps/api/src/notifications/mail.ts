import type { NotificationType } from '@task-manager/shared';
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
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const day = (iso: string | undefined) => (iso ? iso.slice(0, 10) : '');

/** One line saying what happened, in plain text. */
export function describe(item: MailItem): string {
  const who = item.actorName ?? 'Someone';
  const title = `"${item.taskTitle}"`;
  switch (item.type) {
    case 'assigned':
      return `${who} assigned you to ${title}.`;
    case 'unassigned':
      return `${who} removed you from ${title}.`;
    case 'mentioned':
      return `${who} mentioned you in a comment on ${title}.`;
    case 'commented':
      return `${who} commented on ${title}.`;
    case 'due_changed':
      return `${who} changed the due date of ${title} to ${day(item.dueDate)}.`;
    case 'due_soon':
      return `${title} is due tomorrow (${day(item.dueDate)}).`;
    case 'overdue':
      return `${title} is overdue (it was due ${day(item.dueDate)}).`;
  }
}

const subjects: Record<NotificationType, string> = {
  assigned: 'You were assigned',
  unassigned: 'You were removed from a task',
  mentioned: 'You were mentioned',
  commented: 'New comment',
  due_changed: 'Due date changed',
  due_soon: 'Due tomorrow',
  overdue: 'Overdue',
};

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

const footerText = (link: string, what: string) =>
  `\n--\nYou get this because of your notification settings. Stop ${what}: ${link}\n`;

const footerHtml = (link: string, what: string) =>
  `<hr><p style="color:#666;font-size:12px">You get this because of your notification ` +
  `settings. <a href="${escapeHtml(link)}">Stop ${escapeHtml(what)}</a>.</p>`;

/** The mail sent at once for one notification. */
export function instantMail(config: NotificationMailConfig, recipient: Recipient, item: MailItem) {
  const link = taskLink(config, recipient, item);
  const unsubscribe = unsubscribeLink(config, recipient.id, item.type);
  const what = `e-mails like this one`;
  const line = describe(item);
  return {
    to: recipient.email,
    subject: `${subjects[item.type]}: ${item.taskTitle}`,
    text: `Hello ${recipient.name},\n\n${line}\n\nOpen: ${link}\n${footerText(unsubscribe, what)}`,
    html:
      `<p>Hello ${escapeHtml(recipient.name)},</p><p>${escapeHtml(line)}</p>` +
      `<p><a href="${escapeHtml(link)}">Open the task</a></p>${footerHtml(unsubscribe, what)}`,
    headers: listHeaders(unsubscribe),
  };
}

/** The daily digest: every notification waiting for it, one line and link each. */
export function digestMail(
  config: NotificationMailConfig,
  recipient: Recipient,
  items: MailItem[],
) {
  const unsubscribe = unsubscribeLink(config, recipient.id, 'digest');
  const what = 'the daily digest';
  const lines = items.map((item) => ({
    text: describe(item),
    link: taskLink(config, recipient, item),
  }));
  return {
    to: recipient.email,
    subject: `Your daily summary: ${items.length} update${items.length === 1 ? '' : 's'}`,
    text:
      `Hello ${recipient.name},\n\nWhat happened since your last summary:\n\n` +
      lines.map((l) => `- ${l.text}\n  ${l.link}`).join('\n') +
      `\n${footerText(unsubscribe, what)}`,
    html:
      `<p>Hello ${escapeHtml(recipient.name)},</p><p>What happened since your last summary:</p><ul>` +
      lines
        .map((l) => `<li>${escapeHtml(l.text)} <a href="${escapeHtml(l.link)}">Open</a></li>`)
        .join('') +
      `</ul>${footerHtml(unsubscribe, what)}`,
    headers: listHeaders(unsubscribe),
  };
}
