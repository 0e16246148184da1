import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { FormError, TextField } from '../../../components/ui/field';
import { PasswordField } from '../../../components/ui/password-field';
import { afterSignInPath, fromOf, paths } from '../../../config/paths';
import { errorMessage } from '../../../lib/api-client';
import { useT } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { useLogin } from '../api/login';
import { authFormProblem, preloadSignIn } from '../auth-schemas';

export function LoginPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const login = useLogin();
  const t = useT();
  const { signIn } = useSession();
  const navigate = useNavigate();
  const location = useLocation();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = await authFormProblem((schemas) => schemas.loginSchema, { email, password });
    setError(problem);
    if (problem) return;
    login.mutate(
      { email, password },
      {
        onSuccess: ({ token, ...user }) => {
          signIn(token, user);
          notify('success', t('auth.welcomeToast', { name: user.name || t('ui.user') }));
          void navigate(afterSignInPath(user.role, fromOf(location.state)), { replace: true });
        },
        onError: (failure) => setError(errorMessage(failure, t('passwordReset.genericError'))),
      },
    );
  }

  return (
    <section aria-labelledby="login-heading">
      <h1 id="login-heading" className="text-xl font-semibold text-slate-900">
        {t('auth.welcomeBack')}
      </h1>
      <p className="mt-1 mb-6 text-sm text-slate-600">{t('auth.loginIntro')}</p>
      <form
        onSubmit={(event) => void submit(event)}
        onFocus={preloadSignIn}
        noValidate
        className="flex flex-col gap-4"
      >
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
          autoComplete="current-password"
          placeholder={t('profile.minCharacters')}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <p className="-mt-2 text-right text-sm">
          <Link to={paths.forgotPassword} className="text-blue-700 underline">
            {t('passwordReset.forgotLink')}
          </Link>
        </p>
        <FormError message={error} />
        <Button type="submit" disabled={login.isPending} className="w-full">
          {login.isPending ? t('auth.loggingIn') : t('auth.login')}
        </Button>
        <p className="text-sm text-slate-700">
          {t('auth.noAccount')}{' '}
          <Link to={paths.signup} className="font-medium text-blue-700 underline">
            {t('auth.signUpLink')}
          </Link>
        </p>
      </form>
    </section>
  );
}
