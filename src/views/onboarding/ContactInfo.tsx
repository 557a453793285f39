import { useSelector } from '@xstate/react';
import { type ContactField, REQUIRED_ADDRESS_FIELDS, isAddressStarted } from '../../machines/onboarding.machine.ts';
import { PhoneInput } from '../../widgets/PhoneInput.tsx';
import { TextInput } from '../../widgets/TextInput.tsx';
import { type OnboardingActor, OnboardingFrame, useOnboardingActor } from './OnboardingFrame.tsx';
import { ADDRESS_FIELDS, ADDRESS_LABELS } from './profileFields.ts';


function useField(actor: OnboardingActor, field: ContactField) {
  const value = useSelector(actor, (snapshot) => snapshot.context.contact[field]);
  const errorMessage = useSelector(actor, (snapshot) => snapshot.context.fieldErrors[field]);
  const isDisabled = useSelector(actor, (snapshot) => snapshot.hasTag('busy'));
  return {
    name: field,
    value,
    errorMessage,
    isDisabled,
    onChange: (next: string) => actor.send({ type: 'CHANGE_FIELD', field, value: next }),
  };
}

/** Onboarding step 3 of 3 (SPEC §5 Contact info): all optional, but an address once begun must be complete. */
export default function ContactInfo() {
  const actor = useOnboardingActor('contactInfo');
  const addressStarted = useSelector(actor, (snapshot) => isAddressStarted(snapshot.context.contact));
  const phone = useField(actor, 'phone');
  const email = useField(actor, 'preferredEmail');
  const addressFields = {
    addressLine1: useField(actor, 'addressLine1'),
    addressLine2: useField(actor, 'addressLine2'),
    city: useField(actor, 'city'),
    state: useField(actor, 'state'),
    postalCode: useField(actor, 'postalCode'),
    country: useField(actor, 'country'),
  };
  return (
    <OnboardingFrame actor={actor} title="How can we reach you?"
      intro={<p>Your concierge uses these to fill in your requests for you. You can skip any of them.</p>}>
      <div className="lc-onboarding__fields">
        <PhoneInput label="Phone number" {...phone} />
        <TextInput label="Preferred email" type="email" inputMode="email" autoComplete="email" {...email} />
        <fieldset className="lc-onboarding__address">
          <legend>Address</legend>
          {ADDRESS_FIELDS.map((field) => (
            <TextInput key={field} label={ADDRESS_LABELS[field].label} autoComplete={ADDRESS_LABELS[field].autoComplete}
              isRequired={addressStarted && (REQUIRED_ADDRESS_FIELDS as readonly string[]).includes(field)}
              {...addressFields[field]} />
          ))}
        </fieldset>
      </div>
    </OnboardingFrame>
  );
}
