import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { FormError, TextField } from '../../../components/ui/field';
import { PasswordField } from '../../../components/ui/password-field';
import { homePathFor, paths } from '../../../config/paths';
import { errorMessage } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { useRegister } from '../api/register';
import { uploadImage } from '../api/upload-image';
import { PhotoPicker } from '../components/photo-picker';
import { authFormProblem, preloadAuthSchemas } from '../auth-schemas';

export function SignUpPage() {
  const [photo, setPhoto] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [inviteToken, setInviteToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const register = useRegister();
  const { signIn } = useSession();
  const navigate = useNavigate();
  const busy = uploading || register.isPending;

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
        adminInviteToken: inviteToken,
      });
      signIn(token, user);
      void navigate(homePathFor(user.role), { replace: true });
    } catch (failure) {
      setError(errorMessage(failure, 'Something went wrong. Please try again.'));
    } finally {
      setUploading(false);
    }
  }

  return (
    <section aria-labelledby="signup-heading">
      <h1 id="signup-heading" className="text-xl font-semibold text-slate-900">
        Create an Account
      </h1>
      <p className="mt-1 mb-6 text-sm text-slate-600">
        Join us today by entering your details below.
      </p>
      <form
        onSubmit={(event) => void submit(event)}
        onFocus={preloadAuthSchemas}
        noValidate
        className="flex flex-col gap-4"
      >
        <PhotoPicker file={photo} onChange={setPhoto} onReject={setError} />
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
          <TextField
            label="Full Name"
            autoComplete="name"
            placeholder="John"
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
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
            autoComplete="new-password"
            placeholder="Min 8 Characters"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
          <TextField
            label="Admin Invite Token"
            inputMode="numeric"
            autoComplete="off"
            placeholder="6 Digit Code"
            value={inviteToken}
            onChange={(event) => setInviteToken(event.target.value)}
          />
        </div>
        <FormError message={error} />
        <Button type="submit" disabled={busy} className="w-full">
          {busy ? 'SIGNING UP...' : 'SIGN UP'}
        </Button>
        <p className="text-sm text-slate-700">
          Already have an account?{' '}
          <Link to={paths.login} className="font-medium text-blue-700 underline">
            Login
          </Link>
        </p>
      </form>
    </section>
  );
}
