import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { FormError, TextField } from '../../../components/ui/field';
import { PasswordField } from '../../../components/ui/password-field';
import { homePathFor, paths } from '../../../config/paths';
import { errorMessage } from '../../../lib/api-client';
import { currentLanguage, useT } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';
import { useAuthOptions } from '../api/account';
import { useInviteLookup, useRegister } from '../api/register';
import { uploadImage } from '../api/upload-image';
import { PhotoPicker } from '../components/photo-picker';
import { authFormProblem, preloadSignIn } from '../auth-schemas';

export function SignUpPage() {
  const [photo, setPhoto] = useState<File | null>(null);
  const [name, setName] = useState('');
  /** What was typed; null until then, the e-mail an invitation was made for showing instead. */
  const [typedEmail, setEmail] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const [inviteToken, setInviteToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [params] = useSearchParams();
  const invite = params.get('invite');
  // Once the account exists the invitation is used: it is not looked up again.
  const [registered, setRegistered] = useState(false);
  const lookup = useInviteLookup(registered ? null : invite);
  const email = typedEmail ?? lookup.data?.email ?? '';
  const options = useAuthOptions();
  const inviteOnly = options.data?.signupMode === 'invite' && !invite;
  const register = useRegister();
  const { signIn } = useSession();
  const navigate = useNavigate();
  const busy = uploading || register.isPending;
  const t = useT();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = await authFormProblem((schemas) => schemas.registerSchema, {
      name,
      email,
      password,
      adminInviteToken: inviteToken,
    });
    setError(problem);
    if (problem) return;
    try {
      // The photo is uploaded first; its URL goes into the registration.
      let profileImageUrl = '';
      if (photo) {
        setUploading(true);
        profileImageUrl = await uploadImage(photo);
      }
      const { token, ...user } = await register.mutateAsync({
        name,
        email,
        password,
        profileImageUrl,
        adminInviteToken: invite ? '' : inviteToken,
        ...(invite && { invite }),
        // The account starts with the language the person signed up in: the e-mails speak it.
        language: currentLanguage(),
      });
      setRegistered(true);
      signIn(token, user);
      void navigate(homePathFor(user.role), { replace: true });
    } catch (failure) {
      setError(errorMessage(failure, t('passwordReset.genericError')));
    } finally {
      setUploading(false);
    }
  }

  return (
    <section aria-labelledby="signup-heading">
      <h1 id="signup-heading" className="text-xl font-semibold text-slate-900">
        {t('auth.signupHeading')}
      </h1>
      <p className="mt-1 mb-6 text-sm text-slate-600">{t('auth.signupIntro')}</p>
      {invite && lookup.data && (
        <p role="status" className="mb-4 rounded-md bg-blue-50 px-3 py-2 text-sm text-blue-900">
          {lookup.data.role === 'admin'
            ? lookup.data.email
              ? t('auth.invitedAsAdminWithEmail', { email: lookup.data.email })
              : t('auth.invitedAsAdmin')
            : lookup.data.email
              ? t('auth.invitedAsMemberWithEmail', { email: lookup.data.email })
              : t('auth.invitedAsMember')}
        </p>
      )}
      {invite && lookup.isError && (
        <p role="alert" className="mb-4 text-sm text-red-700">
          {t('auth.inviteInvalid')}
        </p>
      )}
      {inviteOnly && (
        <p role="status" className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {t('auth.inviteOnly')}
        </p>
      )}
      <form
        onSubmit={(event) => void submit(event)}
        onFocus={preloadSignIn}
        noValidate
        className="flex flex-col gap-4"
      >
        <PhotoPicker file={photo} onChange={setPhoto} onReject={setError} />
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
          <TextField
            label={t('profile.fullName')}
            autoComplete="name"
            placeholder={t('auth.namePlaceholder')}
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
          <TextField
            label={t('profile.emailAddress')}
            type="email"
            autoComplete="email"
            placeholder="john@example.com"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
          <PasswordField
            label={t('profile.password')}
            autoComplete="new-password"
            placeholder={t('profile.minCharacters')}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
          {!invite && (
            <div className="flex flex-col gap-1">
              <TextField
                label={t('auth.adminInviteToken')}
                inputMode="numeric"
                autoComplete="off"
                placeholder={t('auth.sixDigitCode')}
                aria-describedby="invite-token-hint"
                value={inviteToken}
                onChange={(event) => setInviteToken(event.target.value)}
              />
              <p id="invite-token-hint" className="text-xs text-slate-600">
                {t('auth.inviteTokenHint')}
              </p>
            </div>
          )}
        </div>
        <FormError message={error} />
        <Button type="submit" disabled={busy} className="w-full">
          {busy ? t('auth.signingUp') : t('auth.signUp')}
        </Button>
        <p className="text-sm text-slate-700">
          {t('auth.haveAccount')}{' '}
          <Link to={paths.login} className="font-medium text-blue-700 underline">
            {t('auth.loginLink')}
          </Link>
        </p>
      </form>
    </section>
  );
}
