import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { FormError } from '../../../components/ui/field';
import { PasswordField } from '../../../components/ui/password-field';
import { paths } from '../../../config/paths';
import { errorMessage } from '../../../lib/api-client';
import { useT } from '../../../lib/i18n';
import { useConfirmPasswordReset } from '../api/account';

/**
 * /reset-password?token=...: sets a new password with a single-use link (from the e-mail, or
 * handed over by an admin). Every session of the account ends; the person then signs in.
 */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const reset = useConfirmPasswordReset();
  const t = useT();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (password.length < 8) return setError(t('profile.passwordTooShort'));
    if (password !== confirm) return setError(t('passwordReset.passwordsDiffer'));
    setError(null);
    reset.mutate(
      { token, password },
      {
        onSuccess: () => setDone(true),
        onError: (failure) => setError(errorMessage(failure, t('passwordReset.genericError'))),
      },
    );
  }

  return (
    <section aria-labelledby="reset-heading" className="flex flex-col gap-4">
      <h1 id="reset-heading" className="text-xl font-semibold text-slate-900">
        {t('passwordReset.setHeading')}
      </h1>
      {!token ? (
        <p role="alert" className="text-sm text-red-700">
          {t('passwordReset.incomplete')}
        </p>
      ) : done ? (
        <p role="status" className="text-sm text-slate-700">
          {t('passwordReset.changed')}
        </p>
      ) : (
        <form onSubmit={submit} noValidate className="flex flex-col gap-4">
          <PasswordField
            label={t('profile.newPassword')}
            autoComplete="new-password"
            placeholder={t('profile.minCharacters')}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
          <PasswordField
            label={t('profile.confirmNewPassword')}
            autoComplete="new-password"
            value={confirm}
            onChange={(event) => setConfirm(event.target.value)}
          />
          <FormError message={error} />
          <Button type="submit" disabled={reset.isPending} className="w-full">
            {reset.isPending ? t('passwordReset.saving') : t('passwordReset.setPassword')}
          </Button>
        </form>
      )}
      <p className="text-sm text-slate-700">
        <Link to={paths.login} className="font-medium text-blue-700 underline">
          {t('passwordReset.goToLogin')}
        </Link>
      </p>
    </section>
  );
}
