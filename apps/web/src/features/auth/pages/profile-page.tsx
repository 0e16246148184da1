import { Upload, Trash2 } from 'lucide-react';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Avatar } from '../../../components/ui/avatar';
import { Button } from '../../../components/ui/button';
import { SectionCard } from '../../../components/ui/section-card';
import { FormError, TextField } from '../../../components/ui/field';
import { PasswordField } from '../../../components/ui/password-field';
import { errorMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import {
  currentLanguage,
  i18next,
  LANGUAGES,
  setLanguage,
  useT,
  type Language,
} from '../../../lib/i18n';
import { useSession } from '../../../lib/session';
import { useScrollToHash } from '../../../lib/use-scroll-to-hash';
import {
  useSaveLanguage,
  useSignOutEverywhere,
  useUpdateProfile,
  type ProfileChange,
} from '../api/account';
import { uploadImage } from '../api/upload-image';
import { authFormProblem, preloadAuthSchemas } from '../auth-schemas';

/**
 * /profile: the signed-in person's own account. Each section saves on its own, so a failed
 * password change never throws away a name just typed in another section. `children` are the
 * other features' sections (notifications, calendar), which app/ wires in.
 */
export function ProfilePage({ children }: { children?: ReactNode }) {
  const { user } = useSession();
  const t = useT();
  // A link to one section (the calendar page's "Subscribe") lands on it.
  useScrollToHash();
  if (!user) return null;
  return (
    <section aria-labelledby="profile-heading" className="flex max-w-2xl flex-col gap-5">
      <h1 id="profile-heading" tabIndex={-1} className="text-xl font-semibold text-slate-900">
        {t('profile.heading')}
      </h1>
      <DetailsSection name={user.name} profileImageUrl={user.profileImageUrl ?? null} />
      <EmailSection email={user.email} />
      <PasswordSection />
      <LanguageSection />
      {children}
      <SessionsSection />
    </section>
  );
}

function DetailsSection({
  name: savedName,
  profileImageUrl,
}: {
  name: string;
  profileImageUrl: string | null;
}) {
  const [name, setName] = useState(savedName);
  const [error, setError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const update = useUpdateProfile();
  const t = useT();

  function save(change: ProfileChange, done: string) {
    setError(null);
    update.mutate(change, {
      onSuccess: () => notify('success', done),
      onError: (failure) => setError(errorMessage(failure, t('profile.saveFailed'))),
    });
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setError(t('profile.nameRequired'));
      return;
    }
    save({ name: trimmed }, t('profile.saved'));
  }

  async function choosePhoto(file: File | undefined) {
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      setError(t('profile.chooseImage'));
      return;
    }
    setUploading(true);
    setError(null);
    try {
      const imageUrl = await uploadImage(file);
      save({ profileImageUrl: imageUrl }, t('profile.photoUpdated'));
    } catch (failure) {
      setError(errorMessage(failure, t('profile.uploadFailed')));
    } finally {
      setUploading(false);
    }
  }

  const busy = update.isPending || uploading;
  return (
    <SectionCard title={t('profile.details')} id="profile-details">
      <div className="flex flex-wrap items-center gap-4">
        <Avatar person={{ name: savedName, profileImageUrl }} size={72} />
        <input
          ref={fileInput}
          type="file"
          accept="image/*"
          className="sr-only"
          aria-label={t('profile.photo')}
          tabIndex={-1}
          onChange={(event) => {
            void choosePhoto(event.target.files?.[0]);
            event.target.value = '';
          }}
        />
        <Button variant="secondary" disabled={busy} onClick={() => fileInput.current?.click()}>
          <Upload size={16} aria-hidden />
          {profileImageUrl ? t('profile.changePhoto') : t('profile.uploadPhoto')}
        </Button>
        {profileImageUrl && (
          <Button
            variant="ghost"
            disabled={busy}
            onClick={() => save({ profileImageUrl: null }, t('profile.photoRemoved'))}
          >
            <Trash2 size={16} aria-hidden />
            {t('profile.removePhoto')}
          </Button>
        )}
      </div>
      <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-4">
        <TextField
          label={t('profile.fullName')}
          autoComplete="name"
          value={name}
          maxLength={100}
          onChange={(event) => setName(event.target.value)}
        />
        <FormError message={error} />
        <div>
          <Button type="submit" disabled={busy || name.trim() === savedName}>
            {t('common.save')}
          </Button>
        </div>
      </form>
    </SectionCard>
  );
}

function EmailSection({ email: savedEmail }: { email: string }) {
  const [email, setEmail] = useState(savedEmail);
  const [currentPassword, setCurrentPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateProfile();
  const t = useT();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = await authFormProblem((schemas) => schemas.loginSchema, {
      email,
      password: currentPassword,
    });
    setError(problem);
    if (problem) return;
    update.mutate(
      { email: email.trim(), currentPassword },
      {
        onSuccess: () => {
          setCurrentPassword('');
          notify('success', t('profile.emailUpdated'));
        },
        onError: (failure) => setError(errorMessage(failure, t('profile.emailFailed'))),
      },
    );
  }

  return (
    <SectionCard title={t('profile.email')} id="profile-email">
      <form
        onSubmit={(event) => void submit(event)}
        onFocus={preloadAuthSchemas}
        noValidate
        className="flex flex-col gap-4"
      >
        <TextField
          label={t('profile.emailAddress')}
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <PasswordField
          label={t('profile.currentPassword')}
          autoComplete="current-password"
          value={currentPassword}
          onChange={(event) => setCurrentPassword(event.target.value)}
        />
        <FormError message={error} />
        <div>
          <Button type="submit" disabled={update.isPending || email.trim() === savedEmail}>
            {t('profile.changeEmail')}
          </Button>
        </div>
      </form>
    </SectionCard>
  );
}

function PasswordSection() {
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateProfile();
  const t = useT();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!currentPassword) return setError(t('profile.currentPasswordRequired'));
    if (newPassword.length < 8) return setError(t('profile.passwordTooShort'));
    if (newPassword !== confirm) return setError(t('profile.passwordsDiffer'));
    if (newPassword === currentPassword) return setError(t('profile.passwordSame'));
    setError(null);
    update.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          setCurrentPassword('');
          setNewPassword('');
          setConfirm('');
          notify('success', t('profile.passwordChanged'));
        },
        onError: (failure) => setError(errorMessage(failure, t('profile.passwordFailed'))),
      },
    );
  }

  return (
    <SectionCard title={t('profile.password')} id="profile-password">
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <PasswordField
          label={t('profile.currentPassword')}
          autoComplete="current-password"
          value={currentPassword}
          onChange={(event) => setCurrentPassword(event.target.value)}
        />
        <PasswordField
          label={t('profile.newPassword')}
          autoComplete="new-password"
          placeholder={t('profile.minCharacters')}
          value={newPassword}
          onChange={(event) => setNewPassword(event.target.value)}
        />
        <PasswordField
          label={t('profile.confirmNewPassword')}
          autoComplete="new-password"
          value={confirm}
          onChange={(event) => setConfirm(event.target.value)}
        />
        <FormError message={error} />
        <div>
          <Button type="submit" disabled={update.isPending}>
            {t('profile.changePassword')}
          </Button>
        </div>
      </form>
    </SectionCard>
  );
}

function SessionsSection() {
  const { endSession } = useSession();
  const everywhere = useSignOutEverywhere();
  const t = useT();
  const [confirming, setConfirming] = useState(false);

  return (
    <SectionCard title={t('profile.sessions')} id="profile-sessions">
      <p className="text-sm text-slate-700">{t('profile.sessionsHint')}</p>
      {confirming ? (
        <div className="flex flex-wrap gap-2">
          <Button
            variant="danger"
            disabled={everywhere.isPending}
            onClick={() =>
              everywhere.mutate(undefined, {
                // This token was ended with the others: no logout call with it, and a word.
                onSuccess: () => {
                  endSession();
                  notify('success', t('profile.signedOutEverywhere'));
                },
                onError: (failure) =>
                  notify('error', errorMessage(failure, t('profile.signOutEverywhereFailed'))),
              })
            }
          >
            {t('profile.confirmSignOutEverywhere')}
          </Button>
          <Button variant="secondary" onClick={() => setConfirming(false)}>
            {t('common.cancel')}
          </Button>
        </div>
      ) : (
        <div>
          <Button variant="secondary" onClick={() => setConfirming(true)}>
            {t('profile.signOutEverywhere')}
          </Button>
        </div>
      )}
    </SectionCard>
  );
}

/**
 * The language switches at once and is saved on the account, so the server's e-mails speak it
 * and other browsers follow. A failed save keeps it here and says so.
 */
function LanguageSection() {
  // useT re-renders on every change of language, including the account's, applied at sign-in.
  const t = useT();
  const save = useSaveLanguage();
  // Chosen, its messages still loading: the select shows it already.
  const [pending, setPending] = useState<Language | null>(null);
  const language = pending ?? currentLanguage();

  function choose(next: Language) {
    setPending(next);
    setLanguage(next)
      .catch(() => {
        // The messages did not load (offline): the select goes back to the language shown.
      })
      .finally(() => setPending((shown) => (shown === next ? null : shown)));
    save.mutate(next, {
      // i18next.t, not t: the message speaks the language just chosen.
      onError: () => notify('error', i18next.t('language.saveFailed'), { id: 'language-save' }),
    });
  }

  return (
    <SectionCard title={t('language.title')} id="profile-language">
      <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
        {t('language.label')}
        <select
          value={language}
          onChange={(event) => choose(event.target.value as Language)}
          className="max-w-xs rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900"
        >
          {LANGUAGES.map((code) => (
            <option key={code} value={code} lang={code}>
              {t(`language.${code}`)}
            </option>
          ))}
        </select>
      </label>
      <p className="text-sm text-slate-600">{t('language.hint')}</p>
    </SectionCard>
  );
}
