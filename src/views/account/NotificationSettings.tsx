import { useSelector } from '@xstate/react';
import { REPLY_EMAIL_CHOICES, type ReplyEmailChoice } from '../../contract/notifications.ts';
import { useFlow } from '../../machines/appSystem.tsx';
import { NOTIFICATION_SETTINGS_TEXT, notificationSettingsMachine } from '../../machines/notificationSettings.machine.ts';
import { Message, RetryMessage } from '../../widgets/Message.tsx';
import { ChoiceField } from '../../widgets/RadioGroup.tsx';
import { Skeleton } from '../../widgets/Skeleton.tsx';

const OPTIONS = (Object.keys(REPLY_EMAIL_CHOICES) as ReplyEmailChoice[]).map((value) => ({ value, ...REPLY_EMAIL_CHOICES[value] }));

/** Account's Notifications section (issue 32): which e-mails the employee gets about their concierge's replies. */
export function NotificationSettings() {
  const settings = useFlow(notificationSettingsMachine, { id: 'notificationSettings' });
  const choice = useSelector(settings, (snapshot) => snapshot.context.choice);
  const error = useSelector(settings, (snapshot) => snapshot.context.error);
  const loadFailed = useSelector(settings, (snapshot) => snapshot.matches('loadFailed'));
  const saving = useSelector(settings, (snapshot) => snapshot.hasTag('busy'));
  const saved = useSelector(settings, (snapshot) => snapshot.matches({ ready: 'saved' }));

  return (
    <section className="lc-account-section" aria-labelledby="account-notifications" aria-busy={saving}>
      <h2 id="account-notifications">Notifications</h2>
      {loadFailed && error && <RetryMessage onRetry={() => settings.send({ type: 'RETRY' })}>{error}</RetryMessage>}
      {!loadFailed && choice === null && <Skeleton lines={3} />}
      {choice !== null && (
        <ChoiceField label="E-mail me about replies" options={OPTIONS} value={choice} isDisabled={saving}
          onChange={(picked) => settings.send({ type: 'CHOOSE', choice: picked })} />
      )}
      {!loadFailed && error && <Message severity="error">{error}</Message>}
      <p role="status" className="lc-account-section__status">{saved ? NOTIFICATION_SETTINGS_TEXT.saved : ''}</p>
    </section>
  );
}
