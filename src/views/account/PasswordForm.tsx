import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import type { useFlow } from '../../machines/appSystem.tsx';
import type { PasswordField, passwordChangeMachine } from '../../machines/passwordChange.machine.ts';
import { Button } from '../../widgets/Button.tsx';
import { Message } from '../../widgets/Message.tsx';
import { TextInput } from '../../widgets/TextInput.tsx';

const FIELDS: { field: PasswordField; label: string; autoComplete: string }[] = [
  { field: 'current_password', label: 'Current password', autoComplete: 'current-password' },
  { field: 'password', label: 'New password', autoComplete: 'new-password' },
  { field: 'password_confirmation', label: 'Confirm new password', autoComplete: 'new-password' },
];

type PasswordChangeActor = ReturnType<typeof useFlow<typeof passwordChangeMachine>>;

/**
 * The password change form (PasswordSection.tsx). A chunk of its own, loaded when the employee presses Change
 * password: its fields' code is not part of Account Settings' first load (DESIGN §9).
 */
export default function PasswordForm({ actor }: { actor: PasswordChangeActor }) {
  const form = useSelector(actor, (snapshot) => snapshot.context.form);
  const fieldErrors = useSelector(actor, (snapshot) => snapshot.context.fieldErrors);
  const formError = useSelector(actor, (snapshot) => snapshot.context.formError);
  const isSaving = useSelector(actor, (snapshot) => snapshot.hasTag('busy'));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'SUBMIT' });
  };

  return (
    <form className="lc-account-section__form" aria-label="Change password" onSubmit={submit} noValidate>
      {FIELDS.map(({ field, label, autoComplete }) => (
        <TextInput key={field} type="password" label={label} name={field} autoComplete={autoComplete} isRequired
          value={form[field]} errorMessage={fieldErrors[field]} isDisabled={isSaving}
          onChange={(value) => actor.send({ type: 'CHANGE', field, value })} />
      ))}
      {formError && <Message severity="error">{formError}</Message>}
      <div className="lc-account-section__actions">
        <Button type="submit" isLoading={isSaving}>Change password</Button>
        <Button variant="tertiary" isDisabled={isSaving} onPress={() => actor.send({ type: 'CANCEL' })}>Cancel</Button>
      </div>
    </form>
  );
}
