import {
  LANGUAGES,
  type Language,
  type NotificationType,
  type TaskPriority,
  type TaskStatus,
} from '@task-manager/shared';

/**
 * Everything the server writes to a person in words (e-mails, the unsubscribe pages, calendar
 * feeds), in each language the app speaks: the person's own (`users.language`, chosen in the
 * app), else, for a visitor not known yet, their browser's. English is the spec's and the
 * default. A language is one object of this shape: TypeScript refuses one that leaves a text
 * out.
 *
 * The API's JSON messages stay English (the spec's contract): the web app translates those.
 */
export interface ServerTexts {
  /** Its language tag, as an HTML page's `lang`. */
  language: Language;
  /** A day of an ISO instant (its UTC date, as the app's due days). */
  day(iso: string | undefined): string;
  hello(name: string): string;
  /** Who did it when no one is named (an actor since deleted). */
  someone: string;
  notification: {
    /** One line saying what happened; `who` and `title` as they should read. */
    line(type: NotificationType, who: string, title: string, day: string): string;
    subject: Record<NotificationType, string>;
    open: string;
    openTask: string;
    /** The footer's "stop what": this kind of mail, or the digest. */
    stopThese: string;
    stopDigest: string;
    footer(stopWhat: string): { text: string; link: string };
  };
  digest: {
    subject(count: number): string;
    intro: string;
  };
  account: {
    help(loginUrl: string): string;
    emailChangedSubject: string;
    emailChanged(before: string, after: string): string;
    passwordChangedSubject: string;
    passwordChanged: string;
    /** The same changes made by an admin, named. */
    emailChangedByAdmin(admin: string, before: string, after: string): string;
    passwordChangedByAdmin(admin: string): string;
    adminHelp(loginUrl: string): string;
  };
  reset: {
    subject: string;
    body(url: string): string;
  };
  calendar: {
    name(everything: boolean): string;
    /** An event's first description line: the task's status and priority. */
    summary(status: TaskStatus, priority: TaskPriority): string;
  };
  unsubscribe: {
    /** What a link stops, as the confirm page asks it. */
    kinds: Record<NotificationType | 'digest', string>;
    title: string;
    question(what: string): string;
    button: string;
    doneTitle: string;
    done: string;
    invalidTitle: string;
    invalid: string;
    settings: string;
  };
}

/** Text made safe inside HTML, an attribute's value included. */
export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const isoDay = (iso: string | undefined) => (iso ? iso.slice(0, 10) : '');

const en: ServerTexts = {
  language: 'en',
  day: isoDay,
  hello: (name) => `Hello ${name},`,
  someone: 'Someone',
  notification: {
    line: (type, who, title, day) => {
      switch (type) {
        case 'assigned':
          return `${who} assigned you to ${title}.`;
        case 'unassigned':
          return `${who} removed you from ${title}.`;
        case 'mentioned':
          return `${who} mentioned you in a comment on ${title}.`;
        case 'commented':
          return `${who} commented on ${title}.`;
        case 'due_changed':
          return `${who} changed the due date of ${title} to ${day}.`;
        case 'due_soon':
          return `${title} is due tomorrow (${day}).`;
        case 'overdue':
          return `${title} is overdue (it was due ${day}).`;
      }
    },
    subject: {
      assigned: 'You were assigned',
      unassigned: 'You were removed from a task',
      mentioned: 'You were mentioned',
      commented: 'New comment',
      due_changed: 'Due date changed',
      due_soon: 'Due tomorrow',
      overdue: 'Overdue',
    },
    open: 'Open',
    openTask: 'Open the task',
    stopThese: 'e-mails like this one',
    stopDigest: 'the daily digest',
    footer: (what) => ({
      text: 'You get this because of your notification settings.',
      link: `Stop ${what}`,
    }),
  },
  digest: {
    subject: (count) => `Your daily summary: ${count} update${count === 1 ? '' : 's'}`,
    intro: 'What happened since your last summary:',
  },
  account: {
    help: (loginUrl) =>
      `If you did this, there is nothing to do. If you did not, ask an admin of your team ` +
      `for a password reset link at once (${loginUrl}).`,
    emailChangedSubject: 'Your Task Manager e-mail address was changed',
    emailChanged: (before, after) =>
      `The e-mail address of your Task Manager account was changed from ${before} to ` +
      `${after}. Mails now go to the new address.`,
    passwordChangedSubject: 'Your Task Manager password was changed',
    passwordChanged:
      'The password of your Task Manager account was changed, and every other session of it ' +
      'was signed out.',
    emailChangedByAdmin: (admin, before, after) =>
      `${admin}, an admin of your team, changed the e-mail address of your Task Manager ` +
      `account from ${before} to ${after}. Mails now go to the new address.`,
    passwordChangedByAdmin: (admin) =>
      `${admin}, an admin of your team, set a new password for your Task Manager account, ` +
      `and every session of it was signed out.`,
    adminHelp: (loginUrl) =>
      `If you did not expect this, ask the admins of your team about it (${loginUrl}).`,
  },
  reset: {
    subject: 'Reset your Task Manager password',
    body: (url) =>
      `Someone (hopefully you) asked to reset your Task Manager password. Open this link ` +
      `within one hour to choose a new one:\n\n${url}\n\n` +
      `If you did not ask, ignore this mail: your password stays as it is.`,
  },
  calendar: {
    name: (everything) => (everything ? 'Task Manager: all tasks' : 'Task Manager: my tasks'),
    summary: (status, priority) => `${status} · ${priority} priority`,
  },
  unsubscribe: {
    kinds: {
      assigned: 'e-mails when you are assigned to a task',
      unassigned: 'e-mails when you are removed from a task',
      mentioned: 'e-mails when you are mentioned',
      commented: 'e-mails about comments on your tasks',
      due_changed: 'e-mails when the due date of your task changes',
      due_soon: 'e-mails about tasks due tomorrow',
      overdue: 'e-mails about overdue tasks',
      digest: 'the daily digest',
    },
    title: 'Unsubscribe',
    question: (what) => `Stop ${what}?`,
    button: 'Unsubscribe',
    doneTitle: 'Unsubscribed',
    done: 'You will not get these e-mails any more. You can turn them on again in your profile.',
    invalidTitle: 'Invalid link',
    invalid: 'This unsubscribe link is not valid.',
    settings: 'Open your e-mail settings',
  },
};

const germanDay = new Intl.DateTimeFormat('de-DE', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  timeZone: 'UTC',
});

/** As the web app names them (apps/web/src/locales/de.ts). */
const GERMAN_STATUS: Record<TaskStatus, string> = {
  Pending: 'Offen',
  'In Progress': 'In Arbeit',
  Completed: 'Erledigt',
};
const GERMAN_PRIORITY: Record<TaskPriority, string> = {
  Low: 'Niedrig',
  Medium: 'Mittel',
  High: 'Hoch',
};

const de: ServerTexts = {
  language: 'de',
  day: (iso) => {
    const time = iso ? Date.parse(iso) : NaN;
    return Number.isNaN(time) ? isoDay(iso) : germanDay.format(time);
  },
  hello: (name) => `Hallo ${name},`,
  someone: 'Jemand',
  notification: {
    line: (type, who, title, day) => {
      switch (type) {
        case 'assigned':
          return `${who} hat dir ${title} zugewiesen.`;
        case 'unassigned':
          return `${who} hat dich von ${title} entfernt.`;
        case 'mentioned':
          return `${who} hat dich in einem Kommentar zu ${title} erwähnt.`;
        case 'commented':
          return `${who} hat ${title} kommentiert.`;
        case 'due_changed':
          return `${who} hat das Fälligkeitsdatum von ${title} auf den ${day} geändert.`;
        case 'due_soon':
          return `${title} ist morgen fällig (${day}).`;
        case 'overdue':
          return `${title} ist überfällig (fällig war es am ${day}).`;
      }
    },
    subject: {
      assigned: 'Dir wurde eine Aufgabe zugewiesen',
      unassigned: 'Du wurdest von einer Aufgabe entfernt',
      mentioned: 'Du wurdest erwähnt',
      commented: 'Neuer Kommentar',
      due_changed: 'Fälligkeitsdatum geändert',
      due_soon: 'Morgen fällig',
      overdue: 'Überfällig',
    },
    open: 'Öffnen',
    openTask: 'Aufgabe öffnen',
    stopThese: 'E-Mails wie diese',
    stopDigest: 'die tägliche Zusammenfassung',
    footer: (what) => ({
      text: 'Du bekommst diese E-Mail wegen deiner Benachrichtigungseinstellungen.',
      link: `${what[0]!.toUpperCase()}${what.slice(1)} abbestellen`,
    }),
  },
  digest: {
    subject: (count) =>
      `Deine tägliche Zusammenfassung: ${count} ${count === 1 ? 'Neuigkeit' : 'Neuigkeiten'}`,
    intro: 'Was seit deiner letzten Zusammenfassung passiert ist:',
  },
  account: {
    help: (loginUrl) =>
      `Wenn du das warst, ist nichts zu tun. Wenn nicht, bitte sofort einen Admin deines ` +
      `Teams um einen Link zum Zurücksetzen des Passworts (${loginUrl}).`,
    emailChangedSubject: 'Die E-Mail-Adresse deines Task-Manager-Kontos wurde geändert',
    emailChanged: (before, after) =>
      `Die E-Mail-Adresse deines Task-Manager-Kontos wurde von ${before} in ${after} ` +
      `geändert. E-Mails gehen jetzt an die neue Adresse.`,
    passwordChangedSubject: 'Das Passwort deines Task-Manager-Kontos wurde geändert',
    passwordChanged:
      'Das Passwort deines Task-Manager-Kontos wurde geändert, und alle anderen Sitzungen ' +
      'wurden abgemeldet.',
    emailChangedByAdmin: (admin, before, after) =>
      `${admin}, ein Admin deines Teams, hat die E-Mail-Adresse deines Task-Manager-Kontos ` +
      `von ${before} in ${after} geändert. E-Mails gehen jetzt an die neue Adresse.`,
    passwordChangedByAdmin: (admin) =>
      `${admin}, ein Admin deines Teams, hat ein neues Passwort für dein Task-Manager-Konto ` +
      `gesetzt, und alle Sitzungen wurden abgemeldet.`,
    adminHelp: (loginUrl) =>
      `Wenn du das nicht erwartet hast, frag die Admins deines Teams danach (${loginUrl}).`,
  },
  reset: {
    subject: 'Setze dein Task-Manager-Passwort zurück',
    body: (url) =>
      `Jemand (hoffentlich du) möchte dein Task-Manager-Passwort zurücksetzen. Öffne diesen ` +
      `Link innerhalb einer Stunde, um ein neues zu wählen:\n\n${url}\n\n` +
      `Wenn du das nicht warst, ignoriere diese E-Mail: dein Passwort bleibt, wie es ist.`,
  },
  calendar: {
    name: (everything) =>
      everything ? 'Task Manager: alle Aufgaben' : 'Task Manager: meine Aufgaben',
    summary: (status, priority) =>
      `${GERMAN_STATUS[status]} · Priorität ${GERMAN_PRIORITY[priority]}`,
  },
  unsubscribe: {
    kinds: {
      assigned: 'E-Mails, wenn dir eine Aufgabe zugewiesen wird',
      unassigned: 'E-Mails, wenn du von einer Aufgabe entfernt wirst',
      mentioned: 'E-Mails, wenn du erwähnt wirst',
      commented: 'E-Mails zu Kommentaren an deinen Aufgaben',
      due_changed: 'E-Mails, wenn sich das Fälligkeitsdatum deiner Aufgabe ändert',
      due_soon: 'E-Mails zu Aufgaben, die morgen fällig sind',
      overdue: 'E-Mails zu überfälligen Aufgaben',
      digest: 'die tägliche Zusammenfassung',
    },
    title: 'Abbestellen',
    question: (what) => `${what[0]!.toUpperCase()}${what.slice(1)} abbestellen?`,
    button: 'Abbestellen',
    doneTitle: 'Abbestellt',
    done:
      'Du bekommst diese E-Mails nicht mehr. Du kannst sie in deinem Profil wieder ' +
      'einschalten.',
    invalidTitle: 'Ungültiger Link',
    invalid: 'Dieser Link zum Abbestellen ist ungültig.',
    settings: 'E-Mail-Einstellungen öffnen',
  },
};

const texts: Record<Language, ServerTexts> = { en, de };

/**
 * The texts of a person's language; without one (never chosen), those of the first language
 * of `accepted` (a browser's Accept-Language, best first) the app speaks, else English.
 */
export function textsFor(language: Language | null | undefined, accepted?: string | false) {
  if (language) return texts[language];
  const fromBrowser = LANGUAGES.find((candidate) => candidate === accepted);
  return texts[fromBrowser ?? 'en'];
}
