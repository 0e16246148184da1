/**
 * Where notification e-mail links point and what signs their unsubscribe tokens. Notifications
 * are written from inside other features' transactions (recordActivity) and from scheduled jobs,
 * which get no app config: createApp sets this once per process (undefined: no e-mail, because
 * SMTP_URL is not set).
 */
export interface NotificationMailConfig {
  /** PUBLIC_URL, without a trailing slash. */
  publicUrl: string;
  /** The server's JWT secret: it signs the unsubscribe links. */
  secret: string;
}

let current: NotificationMailConfig | undefined;

export function configureNotificationMail(config: NotificationMailConfig | undefined): void {
  current = config;
}

export function notificationMailConfig(): NotificationMailConfig | undefined {
  return current;
}
