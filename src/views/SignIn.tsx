import { useSession, useSessionSend } from '../machines/appSystem.tsx';
import { Button, LinkButton } from '../widgets/Button.tsx';
import { Message } from '../widgets/Message.tsx';
import { TextInput } from '../widgets/TextInput.tsx';
import { emailError, fieldErrors, mfaCodeError, passwordError, useForm } from './forms.ts';
import './forms.css';

/** SignIn (SPEC §2, §5): e-mail and password; while an SMS code is pending, the code step instead. */
export default function SignIn() {
  const isCodeStep = useSession((snapshot) => snapshot.hasTag('mfaPending'));
  return isCodeStep ? <CodeStep /> : <CredentialsStep />;
}

/** The session's banner message, unless it belongs to the sign-up form. */
function useSignInError(): string | null {
  return useSession((snapshot) => (snapshot.matches({ signedOut: 'signUpFailed' }) ? null : snapshot.context.error));
}

function CredentialsStep() {
  const send = useSessionSend();
  const isSigningIn = useSession((snapshot) => snapshot.matches({ signedOut: 'signingIn' }));
  const error = useSignInError();
  const notice = useSession((snapshot) => snapshot.context.notice);
  const { field, onSubmit } = useForm({ email: '', password: '' }, (values) =>
    fieldErrors<typeof values>({ email: emailError(values.email), password: passwordError(values.password) }),
  );

  return (
    <section className="lc-account-screen" aria-labelledby="sign-in-heading">
      <h1 id="sign-in-heading">Sign in</h1>
      {notice && <Message severity="success">{notice}</Message>}
      <form className="lc-account-form" noValidate method="post"
        onSubmit={onSubmit(({ email, password }) => send({ type: 'SIGN_IN', email: email.trim(), password }))}>
        <TextInput label="Email" type="email" autoComplete="username" inputMode="email" isRequired {...field('email')} />
        <TextInput label="Password" type="password" autoComplete="current-password" isRequired {...field('password')} />
        <div className="lc-account-screen__links">
          <LinkButton href="/forgot-password" variant="tertiary">Forgot password?</LinkButton>
        </div>
        {error && <Message severity="error">{error}</Message>}
        <div className="lc-account-form__actions">
          <Button type="submit" isLoading={isSigningIn}>Sign in</Button>
        </div>
      </form>
      <div className="lc-account-screen__links">
        <p>Don&apos;t have an account?</p>
        <LinkButton href="/sign-up" variant="secondary">Sign up</LinkButton>
      </div>
    </section>
  );
}

function CodeStep() {
  const send = useSessionSend();
  const isSending = useSession((snapshot) => snapshot.matches({ authenticated: { mfa: 'sendingCode' } }));
  const isVerifying = useSession((snapshot) => snapshot.matches({ authenticated: { mfa: 'verifying' } }));
  const error = useSignInError();
  const { field, onSubmit } = useForm({ code: '' }, (values) =>
    fieldErrors<typeof values>({ code: mfaCodeError(values.code) }),
  );

  return (
    <section className="lc-account-screen" aria-labelledby="code-heading">
      <h1 id="code-heading">Enter your verification code</h1>
      <p className="lc-account-screen__intro">We sent a 6-digit code by text message to your phone.</p>
      <form className="lc-account-form" noValidate method="post"
        onSubmit={onSubmit(({ code }) => send({ type: 'VERIFY_CODE', otp: code.trim() }))}>
        <TextInput label="Verification code" inputMode="numeric" autoComplete="one-time-code" isRequired autoFocus
          {...field('code')} />
        {error && <Message severity="error">{error}</Message>}
        <div className="lc-account-form__actions">
          <Button type="submit" isLoading={isVerifying} isDisabled={isSending}>Verify</Button>
          <Button variant="tertiary" isLoading={isSending} isDisabled={isVerifying} onPress={() => send({ type: 'SEND_CODE' })}>
            Send a new code
          </Button>
          <Button variant="tertiary" isDisabled={isSending || isVerifying} onPress={() => send({ type: 'SIGN_OUT' })}>
            Use a different account
          </Button>
        </div>
      </form>
    </section>
  );
}
