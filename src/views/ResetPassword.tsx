import { useSelector } from '@xstate/react';
import { useParams } from 'react-router';
import { useFlow } from '../machines/appSystem.tsx';
import { resetPasswordMachine } from '../machines/passwordReset.machine.ts';
import { Button, LinkButton } from '../widgets/Button.tsx';
import { Message } from '../widgets/Message.tsx';
import { TextInput } from '../widgets/TextInput.tsx';
import { FIELD_MESSAGES, fieldErrors, passwordError, useForm } from './forms.ts';
import './forms.css';

/** ResetPassword (SPEC §2, §5): a new password for the token of the e-mailed link; success leads to SignIn. */
export default function ResetPassword() {
  const { resetToken = '' } = useParams();
  const actor = useFlow(resetPasswordMachine, { id: 'resetPassword', input: { resetToken } });
  const isSubmitting = useSelector(actor, (snapshot) => snapshot.hasTag('busy'));
  const error = useSelector(actor, (snapshot) => snapshot.context.error);
  const { field, onSubmit } = useForm({ password: '', passwordConfirmation: '' }, (values) =>
    fieldErrors<typeof values>({
      password: passwordError(values.password, FIELD_MESSAGES.newPasswordMissing),
      passwordConfirmation:
        passwordError(values.passwordConfirmation, FIELD_MESSAGES.confirmationMissing) ??
        (values.passwordConfirmation === values.password ? undefined : FIELD_MESSAGES.passwordsDiffer),
    }),
  );

  return (
    <section className="lc-account-screen" aria-labelledby="reset-password-heading">
      <h1 id="reset-password-heading">Reset your password</h1>
      <p className="lc-account-screen__intro">Choose a new password of at least 6 characters.</p>
      <form className="lc-account-form" noValidate
        onSubmit={onSubmit((values) => actor.send({ type: 'SUBMIT', ...values }))}>
        <TextInput label="New password" type="password" autoComplete="new-password" isRequired {...field('password')} />
        <TextInput label="Confirm new password" type="password" autoComplete="new-password" isRequired
          {...field('passwordConfirmation')} />
        {error && <Message severity="error">{error}</Message>}
        <div className="lc-account-form__actions">
          <Button type="submit" isLoading={isSubmitting}>Update password</Button>
        </div>
      </form>
      <div className="lc-account-screen__links">
        <LinkButton href="/sign-in" variant="tertiary">Back to sign in</LinkButton>
      </div>
    </section>
  );
}
