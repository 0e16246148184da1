import { apiMessages, validationMessages } from '@task-manager/shared';

/**
 * The shared schemas' and the API's messages in German. The forms check input with the shared
 * schemas and the API answers with the same English texts (the spec's), so the web app shows
 * them translated by their English text (translateServerText in lib/i18n.ts). Typed by the
 * shared messages' keys: a message added there without its German text fails the type check
 * and locales.test.ts.
 */
export const deValidationMessages: Record<keyof typeof validationMessages, string> = {
  invalidEmail: 'Bitte eine gültige E-Mail-Adresse eingeben.',
  passwordRequired: 'Bitte das Passwort eingeben',
  passwordTooShort: 'Das Passwort muss mindestens 8 Zeichen lang sein.',
  passwordTooLong: 'Das Passwort darf höchstens 128 Zeichen lang sein.',
  passwordBlank: 'Das Passwort darf nicht nur aus Leerzeichen bestehen.',
  passwordOneCharacter: 'Das Passwort ist zu leicht zu erraten: ein einziges Zeichen wiederholt.',
  passwordLikeAccount:
    'Das Passwort ist zu leicht zu erraten: es ist deine E-Mail-Adresse oder dein Name.',
  passwordCommon: 'Das Passwort ist zu leicht zu erraten: es gehört zu den häufigsten Passwörtern.',
  unsafeCharacters:
    'Der Text darf keine Steuerzeichen (außer Tabulator und Zeilenumbrüchen), kein U+FFFE, U+FFFF und keine unvollständigen Ersatzzeichen enthalten.',
  invalidFullName: 'Bitte einen gültigen vollständigen Namen eingeben.',
  nameTooLong: 'Der Name darf höchstens 100 Zeichen lang sein.',
  inviteTokenFormat: 'Der Admin-Einladungscode muss aus 6 Ziffern bestehen.',
  titleRequired: 'Ein Titel ist erforderlich.',
  titleTooLong: 'Der Titel darf höchstens 200 Zeichen lang sein.',
  descriptionRequired: 'Eine Beschreibung ist erforderlich.',
  descriptionTooLong: 'Die Beschreibung darf höchstens 10000 Zeichen lang sein.',
  dueDateRequired: 'Ein Fälligkeitsdatum ist erforderlich.',
  dueDateInvalid: 'Das Fälligkeitsdatum muss ein gültiges Datum sein.',
  notAssigned: 'Die Aufgabe ist keinem Mitglied zugewiesen.',
  todoRequired: 'Mindestens einen Checklistenpunkt hinzufügen.',
  todoTextBlank: 'Checklistenpunkte dürfen nicht leer sein.',
  todoTextTooLong: 'Checklistenpunkte dürfen höchstens 500 Zeichen lang sein.',
  tooManyTodos: 'Eine Aufgabe kann höchstens 200 Checklistenpunkte haben.',
  tooManyAssignees: 'Eine Aufgabe kann höchstens 100 zugewiesene Personen haben.',
  tooManyAttachments: 'Eine Aufgabe kann höchstens 50 Anhänge haben.',
  invalidAttachment: 'Anhänge müssen Weblinks sein (http oder https).',
  invalidImageUrl: 'Das Profilbild muss ein auf diesen Server hochgeladenes Bild sein.',
  invalidPriority: 'Die Priorität muss Niedrig, Mittel oder Hoch sein.',
  invalidStatus: 'Der Status muss Offen, In Arbeit oder Erledigt sein.',
  invalidRole: 'Die Rolle muss admin oder member sein.',
  invalidLanguage: 'Die Sprache muss en oder de sein.',
  invalidId: 'Ungültige ID.',
  currentPasswordRequired:
    'Zum Festlegen eines neuen Passworts ist das aktuelle Passwort erforderlich.',
  nothingToUpdate: 'Es gibt nichts zu ändern.',
  completedNotBoolean: 'Completed muss true oder false sein.',
  checklistItemOnlyCompleted:
    'Für einen Checklistenpunkt kann nur completed (true oder false) gesendet werden.',
  invalidPageLimit: 'Limit muss eine ganze Zahl von 1 bis 500 sein.',
  invalidCursor: 'Ungültiger Cursor: den nextCursor der vorigen Seite unverändert senden.',
  invalidSearch: 'Die Suche muss ein Text von höchstens 100 Zeichen sein.',
  labelNameRequired: 'Ein Name für das Label ist erforderlich.',
  labelNameTooLong: 'Der Name des Labels darf höchstens 50 Zeichen lang sein.',
  labelColorInvalid: 'Die Farbe des Labels muss eine Hex-Farbe wie #1a2b3c sein.',
  invalidLabelIds: 'Labels müssen eine Liste von Label-IDs sein.',
  tooManyLabels: 'Eine Aufgabe kann höchstens 20 Labels haben.',
  taskSearchTooLong: 'q (Suche) muss ein Text von höchstens 500 Zeichen sein.',
  invalidAssigneeFilter: 'assignee muss eine Benutzer-ID oder me sein.',
  invalidPriorityFilter: 'priority muss eine kommagetrennte Liste aus Low, Medium, High sein.',
  invalidLabelFilter: 'label muss eine kommagetrennte Liste von Label-IDs sein.',
  invalidDueFilter: 'due muss overdue, today, week oder later sein.',
  invalidDueFrom:
    'dueFrom muss ein Datum mit Uhrzeit nach ISO 8601 sein, etwa 2031-06-01T00:00:00Z.',
  invalidDueBefore:
    'dueBefore muss ein Datum mit Uhrzeit nach ISO 8601 sein, etwa 2031-07-01T00:00:00Z.',
  invalidTimeZone: 'tz muss der Name einer IANA-Zeitzone sein, etwa Europe/Paris.',
  invalidSort: 'sort muss createdAt, dueDate, priority, title oder updatedAt sein.',
  invalidOrder: 'order muss asc oder desc sein.',
  invalidTaskView: 'view muss full oder card sein.',
  currentPasswordForEmail: 'Zum Ändern der E-Mail-Adresse ist das aktuelle Passwort erforderlich.',
  newPasswordSame: 'Das neue Passwort muss sich vom aktuellen unterscheiden.',
  invalidActiveFilter: 'Aktiv muss true oder false sein.',
  activeNotBoolean: 'Aktiv muss true oder false sein.',
  reassignOnlyWhenDeactivating:
    'reassignTo geht nur mit active: false (offene Aufgaben werden beim Deaktivieren übergeben).',
  invalidExpiresInDays: 'Die Gültigkeit in Tagen muss eine ganze Zahl von 1 bis 30 sein.',
  resetTokenRequired: 'Dem Link zum Zurücksetzen fehlt sein Token.',
  inviteTokenRequired: 'Dem Einladungslink fehlt sein Token.',
  commentRequired: 'Der Kommentar darf nicht leer sein.',
  commentTooLong: 'Der Kommentar darf höchstens 10.000 Zeichen lang sein.',
  invalidMentions: 'Erwähnungen müssen eine Liste von Benutzer-IDs sein.',
  tooManyMentions: 'Ein Kommentar kann höchstens 50 Personen erwähnen.',
  checklistOrderIds: 'ids muss jede Checklistenpunkt-ID der Aufgabe genau einmal enthalten.',
};

export const deApiMessages: Record<keyof typeof apiMessages, string> = {
  invalidInviteToken: 'Ungültiger Admin-Einladungscode',
  userExists: 'Diesen Benutzer gibt es bereits',
  invalidCredentials: 'E-Mail-Adresse oder Passwort ist falsch',
  wrongCurrentPassword: 'Das aktuelle Passwort ist falsch',
  notAuthorized: 'Nicht angemeldet',
  adminOnly: 'Zugriff verweigert, nur für Admins',
  serverError: 'Serverfehler',
  notFound: 'Nicht gefunden',
  userNotFound: 'Benutzer nicht gefunden',
  taskNotFound: 'Aufgabe nicht gefunden',
  checklistItemNotFound: 'Checklistenpunkt nicht gefunden',
  imageNotFound: 'Bild nicht gefunden',
  assigneeNotFound: 'Zugewiesene Person nicht gefunden',
  lastAdmin: 'Der letzte Admin kann nicht entfernt werden',
  ownPasswordViaProfile: 'Das eigene Passwort im Profil ändern, mit dem aktuellen Passwort',
  malformedJson: 'Fehlerhaftes JSON in der Anfrage',
  malformedUrl: 'Fehlerhafte URL: ein Pfadabschnitt ist keine gültige Prozentkodierung',
  bodyNotObject: 'Der Inhalt der Anfrage muss ein JSON-Objekt sein',
  nulCharacter: 'Der Text darf das NUL-Zeichen (\\u0000) nicht enthalten',
  bodyTooLarge: 'Die Anfrage ist zu groß',
  headersTooLarge: 'Die Kopfzeilen der Anfrage sind zu groß',
  malformedRequest: 'Fehlerhafte HTTP-Anfrage',
  validationFailed: 'Die Prüfung ist fehlgeschlagen',
  tooManyRequests: 'Zu viele Anfragen, bitte später erneut versuchen',
  serverBusy: 'Der Server ist ausgelastet, bitte gleich noch einmal versuchen',
  imageRequired: 'Kein Bild hochgeladen: eine Datei im Feld "image" senden',
  imageTooLarge: 'Das Bild ist zu groß: höchstens 5 MB',
  imageType: 'Nur PNG-, JPEG-, WebP- und GIF-Bilder sind erlaubt',
  profileImageNotFound: 'Profilbild nicht gefunden: das Foto erneut hochladen',
  profileImageTaken: 'Das Profilbild gehört zu einem anderen Konto: das eigene Foto hochladen',
  uploadsFull:
    'Zu viele hochgeladene Fotos warten auf ihre Verwendung: bitte später erneut versuchen oder ohne Foto fortfahren',
  checklistMemberChange:
    'Mitglieder dürfen Checklistenpunkte nur abhaken oder das Häkchen entfernen',
  statusNeedsPartialChecklist:
    'Eine Aufgabe ist nur In Arbeit, solange einige, aber nicht alle Checklistenpunkte erledigt sind',
  taskCreated: 'Aufgabe erfolgreich erstellt',
  taskUpdated: 'Aufgabe erfolgreich aktualisiert',
  taskDeleted: 'Aufgabe erfolgreich gelöscht',
  checklistUpdated: 'Checkliste der Aufgabe aktualisiert',
  statusUpdated: 'Status der Aufgabe aktualisiert',
  labelNotFound: 'Label nicht gefunden',
  labelExists: 'Ein Label mit diesem Namen gibt es bereits',
  labelCreated: 'Label erstellt',
  labelUpdated: 'Label aktualisiert',
  labelDeleted: 'Label gelöscht',
  unknownLabelFilter: 'label: kein Label hat diese ID',
  statusNeedsOpenItem:
    'Jeder Checklistenpunkt ist erledigt: einen wieder öffnen, um die Aufgabe zurück auf In Arbeit zu setzen',
  userDeleted: 'Benutzer erfolgreich gelöscht',
  loggedOut: 'Erfolgreich abgemeldet',
  databaseUnavailable: 'Datenbank nicht erreichbar',
  shuttingDown: 'Der Server wird heruntergefahren',
  accountDeactivated: 'Dieses Konto wurde deaktiviert: einen Admin bitten, es wieder zu aktivieren',
  signupInviteOnly: 'Registrierung nur mit Einladung: einen Admin um einen Einladungslink bitten',
  invalidInvite:
    'Dieser Einladungslink ist nicht gültig: er wurde benutzt, widerrufen oder ist abgelaufen',
  inviteEmailMismatch: 'Diese Einladung gilt für eine andere E-Mail-Adresse',
  inviteNotFound: 'Einladung nicht gefunden',
  inviteRevoked: 'Einladung widerrufen',
  invalidResetToken:
    'Dieser Link zum Zurücksetzen des Passworts ist nicht gültig: er wurde benutzt oder ist abgelaufen',
  passwordResetRequested:
    'Falls ein Konto diese E-Mail-Adresse nutzt, wurde ein Link zum Zurücksetzen des Passworts an sie gesendet',
  passwordResetByEmailOff:
    'Das Zurücksetzen per E-Mail ist auf diesem Server nicht eingerichtet: einen Admin um einen Link bitten',
  passwordResetDone: 'Das Passwort wurde zurückgesetzt: mit dem neuen anmelden',
  loggedOutEverywhere: 'Überall abgemeldet',
  reassignTargetInvalid: 'Aufgaben können nur einem anderen aktiven Benutzer übertragen werden',
  reassignToSelf: 'Aufgaben können nicht dem Benutzer übertragen werden, der gelöscht wird',
  reassignToDeactivated: 'Aufgaben können nicht der Person übergeben werden, die deaktiviert wird',
  assigneeDeactivated: 'Die zugewiesene Person ist deaktiviert',
  commentNotFound: 'Kommentar nicht gefunden',
  commentCreated: 'Kommentar hinzugefügt',
  commentDeleted: 'Kommentar gelöscht',
  notCommentAuthor: 'Nur die Person, die ihn geschrieben hat, kann einen Kommentar bearbeiten',
  notCommentAuthorOrAdmin:
    'Nur die Person, die ihn geschrieben hat, oder ein Admin kann einen Kommentar löschen',
  mentionNotFound: 'mentions: diese Person gibt es nicht',
  mentionCannotSee: 'mentions: diese Person kann die Aufgabe nicht sehen',
  fileNotFound: 'Datei nicht gefunden',
  fileDeleted: 'Datei gelöscht',
  fileMissing: 'Die Datei im Multipart-Feld "file" senden',
  fileTooLarge: 'Die Datei ist zu groß',
  fileEmpty: 'Die Datei ist leer: Wähle eine Datei mit Inhalt',
  notUploaderOrAdmin:
    'Nur die Person, die sie hochgeladen hat, oder ein Admin kann eine Datei löschen',
  uploadFilesForbidden: 'Nur Admins und zugewiesene Personen können Dateien anhängen',
  taskEditConflict:
    'Diese Aufgabe wurde seit dem Laden von jemand anderem geändert: neu laden oder weiter bearbeiten',
  checklistItemAdded: 'Checklistenpunkt hinzugefügt',
  checklistAddForbidden: 'Nur Admins und zugewiesene Personen können Checklistenpunkte hinzufügen',
  checklistRenameForbidden:
    'Nur Admins oder die zugewiesene Person, die ihn hinzugefügt hat, können diesen Punkt umbenennen',
  checklistReorderForbidden: 'Nur Admins können die Checkliste neu ordnen',
};

/** English text -> German text, for every shared and API message. */
export const deServerTexts: ReadonlyMap<string, string> = new Map([
  ...Object.entries(validationMessages).map(
    ([key, english]) =>
      [english, deValidationMessages[key as keyof typeof validationMessages]] as const,
  ),
  ...Object.entries(apiMessages).map(
    ([key, english]) => [english, deApiMessages[key as keyof typeof apiMessages]] as const,
  ),
]);
