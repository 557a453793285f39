import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import type { NameField, accountProfileMachine } from '../../machines/accountProfile.machine.ts';
import type { useFlow } from '../../machines/appSystem.tsx';
import { type ContactField, REQUIRED_ADDRESS_FIELDS, isAddressStarted } from '../../machines/onboarding.machine.ts';
import { Button } from '../../widgets/Button.tsx';
import { Chip } from '../../widgets/Chip.tsx';
import { Message } from '../../widgets/Message.tsx';
import { PhoneInput } from '../../widgets/PhoneInput.tsx';
import { TextInput } from '../../widgets/TextInput.tsx';
import { ABOUT_YOU_CHOICES, ADDRESS_FIELDS, ADDRESS_LABELS } from '../onboarding/profileFields.ts';

type ProfileActor = ReturnType<typeof useFlow<typeof accountProfileMachine>>;

const NAME_LABELS: Record<NameField, { label: string; autoComplete: string }> = {
  firstName: { label: 'First name', autoComplete: 'given-name' },
  lastName: { label: 'Last name', autoComplete: 'family-name' },
};

/**
 * The profile being edited (ProfileSection.tsx). A chunk of its own, loaded when the employee presses Edit profile:
 * its fields' code is not part of Account Settings' first load (DESIGN §9).
 */
export default function ProfileForm({ actor }: { actor: ProfileActor }) {
  const draft = useSelector(actor, (snapshot) => snapshot.context.draft);
  const fieldErrors = useSelector(actor, (snapshot) => snapshot.context.fieldErrors);
  const formError = useSelector(actor, (snapshot) => snapshot.context.formError);
  const isSaving = useSelector(actor, (snapshot) => snapshot.hasTag('busy'));
  const addressStarted = isAddressStarted(draft.contact);
  const contactField = (field: ContactField) => ({
    name: field,
    value: draft.contact[field],
    errorMessage: fieldErrors[field],
    isDisabled: isSaving,
    onChange: (value: string) => actor.send({ type: 'CHANGE_FIELD', field, value }),
  });

  const save = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'SAVE' });
  };

  return (
    <form className="lc-account-section__form" aria-label="Edit your profile" onSubmit={save} noValidate>
      {(Object.keys(NAME_LABELS) as NameField[]).map((field) => (
        <TextInput key={field} label={NAME_LABELS[field].label} name={field} autoComplete={NAME_LABELS[field].autoComplete} isRequired
          value={draft[field]} errorMessage={fieldErrors[field]} isDisabled={isSaving}
          onChange={(value) => actor.send({ type: 'CHANGE_NAME', field, value })} />
      ))}
      <PhoneInput label="Phone number" {...contactField('phone')} />
      <fieldset className="lc-account-section__group">
        <legend>Address</legend>
        {ADDRESS_FIELDS.map((field) => (
          <TextInput key={field} label={ADDRESS_LABELS[field].label} autoComplete={ADDRESS_LABELS[field].autoComplete}
            isRequired={addressStarted && (REQUIRED_ADDRESS_FIELDS as readonly string[]).includes(field)} {...contactField(field)} />
        ))}
      </fieldset>
      <fieldset className="lc-account-section__group lc-account-section__choices">
        <legend>About you</legend>
        {ABOUT_YOU_CHOICES.map((choice) => (
          <Chip key={choice.answerId} variant="checkbox" title={choice.title} description={choice.description}
            isSelected={draft.choices.includes(choice.answerId)} isDisabled={isSaving}
            onChange={(selected) => actor.send({ type: 'TOGGLE_CHOICE', answerId: choice.answerId, selected })} />
        ))}
      </fieldset>
      {formError && <Message severity="error">{formError}</Message>}
      <div className="lc-account-section__actions">
        <Button type="submit" isLoading={isSaving}>Save</Button>
        <Button variant="tertiary" isDisabled={isSaving} onPress={() => actor.send({ type: 'CANCEL' })}>Cancel</Button>
      </div>
    </form>
  );
}
