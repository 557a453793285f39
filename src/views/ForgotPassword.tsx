import { useSelector } from '@xstate/react';
import { forgotPasswordMachine } from '../machines/passwordReset.machine.ts';
import { ACCOUNT_MESSAGES } from '../services/account.messages.ts';
import { Button, LinkButton } from '../widgets/Button.tsx';
import { Message } from '../widgets/Message.tsx';
import { TextInput } from '../widgets/TextInput.tsx';
import { emailError, fieldErrors, useForm } from './forms.ts';
import './forms.css';
import { useFlow } from '../machines/appSystem.tsx';

/** ForgotPassword (SPEC §2, §5, §8): the e-mail form, then a confirmation that never says whether it exists. */
export default function ForgotPassword() {
  const actor = useFlow(forgotPasswordMachine, { id: 'forgotPassword' });
  const isConfirmed = useSelector(actor, (snapshot) => snapshot.matches('confirmation'));
  const isSubmitting = useSelector(actor, (snapshot) => snapshot.hasTag('busy'));
  const error = useSelector(actor, (snapshot) => snapshot.context.error);
  const { field, onSubmit } = useForm({ email: '' }, (values) =>
    fieldErrors<typeof values>({ email: emailError(values.email) }),
  );

  return (
    <section className="lc-account-screen" aria-labelledby="forgot-password-heading">
      <h1 id="forgot-password-heading">Forgot your password?</h1>
      {isConfirmed ? (
        <Message severity="success">{ACCOUNT_MESSAGES.forgotPasswordConfirmation}</Message>
      ) : (
        <>
          <p className="lc-account-screen__intro">
            Enter the email address of your account and we will send you a link to reset your password.
          </p>
          <form className="lc-account-form" noValidate method="post"
            onSubmit={onSubmit(({ email }) => actor.send({ type: 'SUBMIT', email: email.trim() }))}>
            <TextInput label="Email" type="email" autoComplete="email" inputMode="email" isRequired {...field('email')} />
            {error && <Message severity="error">{error}</Message>}
            <div className="lc-account-form__actions">
              <Button type="submit" isLoading={isSubmitting}>Send reset link</Button>
            </div>
          </form>
        </>
      )}
      <div className="lc-account-screen__links">
        <LinkButton href="/sign-in" variant="tertiary">Back to sign in</LinkButton>
      </div>
    </section>
  );
}
