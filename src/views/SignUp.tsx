import { useParams } from 'react-router';
import { useSession, useSessionSend } from '../machines/appSystem.tsx';
import { Button, LinkButton } from '../widgets/Button.tsx';
import { Message } from '../widgets/Message.tsx';
import { TextInput } from '../widgets/TextInput.tsx';
import { FIELD_MESSAGES, emailError, fieldErrors, passwordError, requiredError, useForm } from './forms.ts';
import './forms.css';

/** SignUp (SPEC §2, §5): name, e-mail and password; the optional company slug comes from the address. */
export default function SignUp() {
  const { companySlug } = useParams();
  const send = useSessionSend();
  const isSigningUp = useSession((snapshot) => snapshot.matches({ signedOut: 'signingUp' }));
  const error = useSession((snapshot) => (snapshot.matches({ signedOut: 'signUpFailed' }) ? snapshot.context.error : null));
  const { field, onSubmit } = useForm({ firstName: '', lastName: '', email: '', password: '' }, (values) =>
    fieldErrors<typeof values>({
      firstName: requiredError(values.firstName, FIELD_MESSAGES.firstNameMissing),
      lastName: requiredError(values.lastName, FIELD_MESSAGES.lastNameMissing),
      email: emailError(values.email),
      password: passwordError(values.password),
    }),
  );

  return (
    <section className="lc-account-screen" aria-labelledby="sign-up-heading">
      <h1 id="sign-up-heading">Create your account</h1>
      <form className="lc-account-form" noValidate method="post"
        onSubmit={onSubmit((values) =>
          send({
            type: 'SIGN_UP',
            name: values.firstName.trim(),
            last_name: values.lastName.trim(),
            email: values.email.trim(),
            password: values.password,
            ...(companySlug ? { company_slug: companySlug } : {}),
          }),
        )}>
        <TextInput label="First name" autoComplete="given-name" isRequired {...field('firstName')} />
        <TextInput label="Last name" autoComplete="family-name" isRequired {...field('lastName')} />
        <TextInput label="Email" type="email" autoComplete="email" inputMode="email" isRequired {...field('email')} />
        <TextInput label="Password" type="password" autoComplete="new-password" isRequired
          description="At least 6 characters." {...field('password')} />
        {error && <Message severity="error">{error}</Message>}
        <div className="lc-account-form__actions">
          <Button type="submit" isLoading={isSigningUp}>Sign up</Button>
        </div>
      </form>
      <div className="lc-account-screen__links">
        <p>Already have an account?</p>
        <LinkButton href="/sign-in" variant="secondary">Sign in</LinkButton>
      </div>
    </section>
  );
}
