import { useSelector } from '@xstate/react';
import { Suspense, useEffect } from 'react';
import { type AccountProfileInput, PROFILE_TEXT, accountProfileMachine } from '../../machines/accountProfile.machine.ts';
import { useFlow } from '../../machines/appSystem.tsx';
import { lazyPage } from '../../services/lazyPage.ts';
import { Button } from '../../widgets/Button.tsx';
import { Message } from '../../widgets/Message.tsx';
import { Skeleton } from '../../widgets/Skeleton.tsx';
import { ABOUT_YOU_CHOICES, ADDRESS_FIELDS } from '../onboarding/profileFields.ts';

type ProfileActor = ReturnType<typeof useFlow<typeof accountProfileMachine>>;

const ProfileForm = lazyPage(() => import('./ProfileForm.tsx'));

/** The stored profile, as facts. */
function ProfileFacts({ actor, email }: { actor: ProfileActor; email: string }) {
  const saved = useSelector(actor, (snapshot) => snapshot.context.saved);
  const address = ADDRESS_FIELDS.map((field) => saved.contact[field].trim()).filter(Boolean).join(', ');
  const interests = ABOUT_YOU_CHOICES.filter((choice) => saved.choices.includes(choice.answerId)).map((choice) => choice.title);
  const none = <span className="lc-account-section__none">Not given</span>;
  return (
    <dl className="lc-account-section__facts">
      <dt>Name</dt>
      <dd>{`${saved.firstName} ${saved.lastName}`.trim()}</dd>
      <dt>E-mail</dt>
      <dd>{email}</dd>
      <dt>Phone</dt>
      <dd>{saved.contact.phone || none}</dd>
      <dt>Address</dt>
      <dd>{address || none}</dd>
      <dt>About you</dt>
      <dd>{interests.length > 0 ? interests.join(', ') : none}</dd>
    </dl>
  );
}

/**
 * Account Settings' profile (issue 32 point 3): the e-mail, and the name, phone, address and interests, which the
 * employee edits here (the phone, address and interests are their onboarding answers).
 */
export function ProfileSection({ user, email }: AccountProfileInput & { email: string }) {
  const actor = useFlow(accountProfileMachine, { id: 'accountProfile', input: { user } });
  const isLoading = useSelector(actor, (snapshot) => snapshot.matches('loading'));
  const loadFailed = useSelector(actor, (snapshot) => snapshot.matches('loadFailed'));
  const isViewing = useSelector(actor, (snapshot) => snapshot.matches('viewing'));
  const savedNotice = useSelector(actor, (snapshot) => snapshot.context.savedNotice);
  // The session's user is the app's one source of the name: when it changes, the profile shows the new one.
  const { full_name: fullName, first_name: firstName } = user;
  useEffect(() => {
    actor.send({ type: 'USER_CHANGED', user: { full_name: fullName, first_name: firstName } });
  }, [actor, fullName, firstName]);

  return (
    <section className="lc-account-section" aria-labelledby="account-profile" aria-busy={isLoading}>
      <h2 id="account-profile">Profile</h2>
      {isLoading && <Skeleton lines={4} />}
      {loadFailed && (
        <>
          <Message severity="error">{PROFILE_TEXT.loadFailed}</Message>
          <Button variant="secondary" onPress={() => actor.send({ type: 'RETRY' })}>Try again</Button>
        </>
      )}
      {savedNotice && <Message severity="success">{PROFILE_TEXT.saved}</Message>}
      {isViewing && (
        <>
          <ProfileFacts actor={actor} email={email} />
          <Button variant="secondary" onPress={() => actor.send({ type: 'EDIT' })}>Edit profile</Button>
        </>
      )}
      {!isLoading && !loadFailed && !isViewing && (
        <Suspense fallback={<Skeleton lines={4} />}>
          <ProfileForm actor={actor} />
        </Suspense>
      )}
    </section>
  );
}
