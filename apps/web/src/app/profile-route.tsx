import { ProfilePage } from '../features/auth/pages/profile-page';
import { CalendarFeedSection } from '../features/notifications/components/calendar-feed-section';
import { EmailPreferencesSection } from '../features/notifications/components/email-preferences-section';

/** /profile: the account's own sections, then the e-mail choices and the calendar link. */
export function ProfileRoute() {
  return (
    <ProfilePage>
      <EmailPreferencesSection />
      <CalendarFeedSection />
    </ProfilePage>
  );
}
