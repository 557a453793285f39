import { useSelector } from '@xstate/react';
import { Suspense, useState } from 'react';
import { useSession, useSessionSend } from '../machines/appSystem.tsx';
import type { SsoSignInActor } from '../machines/ssoSignIn.machine.ts';
import { lazyPage } from '../services/lazyPage.ts';
import { Button, LinkButton } from '../widgets/Button.tsx';
import { Message } from '../widgets/Message.tsx';
import { TextInput } from '../widgets/TextInput.tsx';
import { emailError, fieldErrors, mfaCodeError, passwordError, useForm } from './forms.ts';
import './forms.css';

const SignInSso = lazyPage(() => import('./SignInSso.tsx'));

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
  // The single sign-on flow starts with the first keystroke of an address (SignInSso.tsx), and reports here.
  const [ssoWanted, setSsoWanted] = useState(false);
  const [sso, setSso] = useState<SsoSignInActor | undefined>(undefined);
  const offer = useSelector(sso, (snapshot) => snapshot?.context.offer ?? null);
  const isLeaving = useSelector(sso, (snapshot) => snapshot?.hasTag('busy') ?? false);
  // Enforced SSO takes the password's place for the address's domain (issue 29).
  const passwordless = offer?.mode === 'enforced';
  const { field, onSubmit } = useForm({ email: '', password: '' }, (values) =>
    fieldErrors<typeof values>({
      email: emailError(values.email),
      password: passwordless ? undefined : passwordError(values.password),
    }),
  );
  const email = field('email');

  return (
    <section className="lc-account-screen" aria-labelledby="sign-in-heading">
      <h1 id="sign-in-heading">Sign in</h1>
      {notice && <Message severity="success">{notice}</Message>}
      <form className="lc-account-form" noValidate method="post"
        onSubmit={onSubmit(({ email: address, password }) =>
          passwordless ? sso?.send({ type: 'CONTINUE' }) : send({ type: 'SIGN_IN', email: address.trim(), password }))}>
        <TextInput label="Email" type="email" autoComplete="username" inputMode="email" isRequired {...email}
          onChange={(value) => {
            email.onChange(value);
            setSsoWanted(true);
          }} />
        {ssoWanted && (
          <Suspense fallback={null}>
            <SignInSso email={email.value} onFlow={setSso} />
          </Suspense>
        )}
        {offer && (
          <div className="lc-account-form__sso" aria-live="polite">
            {passwordless && <p>{offer.company_name} signs you in with single sign-on.</p>}
            <Button variant={passwordless ? 'primary' : 'secondary'} isLoading={isLeaving} onPress={() => sso?.send({ type: 'CONTINUE' })}>
              {`Continue with ${offer.company_name} SSO`}
            </Button>
          </div>
        )}
        {!passwordless && (
          <>
            <TextInput label="Password" type="password" autoComplete="current-password" isRequired {...field('password')} />
            <div className="lc-account-screen__links">
              <LinkButton href="/forgot-password" variant="tertiary">Forgot password?</LinkButton>
            </div>
          </>
        )}
        {error && <Message severity="error">{error}</Message>}
        {!passwordless && (
          <div className="lc-account-form__actions">
            <Button type="submit" isLoading={isSigningIn}>Sign in</Button>
          </div>
        )}
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
