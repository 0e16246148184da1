import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { FormError, TextField } from '../../../components/ui/field';
import { PasswordField } from '../../../components/ui/password-field';
import { homePathFor, paths } from '../../../config/paths';
import { errorMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { useLogin } from '../api/login';
import { authFormProblem, preloadAuthSchemas } from '../auth-schemas';

export function LoginPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const login = useLogin();
  const { signIn } = useSession();
  const navigate = useNavigate();

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
          notify('success', `Welcome back, ${user.name || 'User'}!`);
          void navigate(homePathFor(user.role), { replace: true });
        },
        onError: (failure) =>
          setError(errorMessage(failure, 'Something went wrong. Please try again.')),
      },
    );
  }

  return (
    <section aria-labelledby="login-heading">
      <h1 id="login-heading" className="text-xl font-semibold text-slate-900">
        Welcome Back
      </h1>
      <p className="mt-1 mb-6 text-sm text-slate-600">Please enter your details to log in</p>
      <form
        onSubmit={(event) => void submit(event)}
        onFocus={preloadAuthSchemas}
        noValidate
        className="flex flex-col gap-4"
      >
        <TextField
          label="Email Address"
          type="email"
          autoComplete="email"
          placeholder="john@example.com"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <PasswordField
          label="Password"
          autoComplete="current-password"
          placeholder="Min 8 Characters"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <FormError message={error} />
        <Button type="submit" disabled={login.isPending} className="w-full">
          {login.isPending ? 'LOGGING IN...' : 'LOGIN'}
        </Button>
        <p className="text-sm text-slate-700">
          Don&apos;t have an account?{' '}
          <Link to={paths.signup} className="font-medium text-blue-700 underline">
            SignUp
          </Link>
        </p>
      </form>
    </section>
  );
}
