import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/feedback';
import { FormError, TextField } from '../../../components/ui/field';
import { paths } from '../../../config/paths';
import { errorMessage } from '../../../lib/api-client';
import { useT } from '../../../lib/i18n';
import { useAuthOptions, useRequestPasswordReset } from '../api/account';
import { authFormProblem, preloadAuthSchemas } from '../auth-schemas';

/**
 * /forgot-password: with e-mail set up on the server, asks for a one-hour link; without it, says
 * whom to ask. The answer is the same whether the address has an account or not.
 */
export function ForgotPasswordPage() {
  const options = useAuthOptions();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const request = useRequestPasswordReset();
  const t = useT();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = await authFormProblem((schemas) => schemas.loginSchema, {
      email,
      password: 'unused',
    });
    setError(problem);
    if (problem) return;
    request.mutate(email.trim(), {
      onSuccess: () => setSentTo(email.trim()),
      onError: (failure) => setError(errorMessage(failure, t('passwordReset.genericError'))),
    });
  }

  const back = (
    <p className="text-sm text-slate-700">
      <Link to={paths.login} className="font-medium text-blue-700 underline">
        {t('passwordReset.backToLogin')}
      </Link>
    </p>
  );

  return (
    <section aria-labelledby="forgot-heading" className="flex flex-col gap-4">
      <h1 id="forgot-heading" className="text-xl font-semibold text-slate-900">
        {t('passwordReset.forgotHeading')}
      </h1>
      {options.isPending ? (
        <Spinner label={t('common.loading')} />
      ) : options.data?.passwordResetByEmail === false ? (
        <>
          <p className="text-sm text-slate-700">{t('passwordReset.noEmail')}</p>
          {back}
        </>
      ) : sentTo ? (
        <>
          <p role="status" className="text-sm text-slate-700">
            {t('passwordReset.sent', { email: sentTo })}
          </p>
          {back}
        </>
      ) : (
        <form
          onSubmit={(event) => void submit(event)}
          onFocus={preloadAuthSchemas}
          noValidate
          className="flex flex-col gap-4"
        >
          <p className="text-sm text-slate-600">{t('passwordReset.intro')}</p>
          <TextField
            label={t('profile.emailAddress')}
            type="email"
            autoComplete="email"
            placeholder="john@example.com"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
          <FormError message={error} />
          <Button type="submit" disabled={request.isPending} className="w-full">
            {request.isPending ? t('passwordReset.sending') : t('passwordReset.send')}
          </Button>
          {back}
        </form>
      )}
    </section>
  );
}
