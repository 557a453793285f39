import { useSelector } from '@xstate/react';
import { confirmationLinkMachine } from '../../machines/confirmationLink.machine.ts';
import { EMAIL_CONFIRMATION_MESSAGES } from '../../services/account.messages.ts';
import { Button } from '../../widgets/Button.tsx';
import { Message } from '../../widgets/Message.tsx';
import { useFlow } from '../../machines/appSystem.tsx';

/**
 * Benefits & Offers while the address is unconfirmed (issue 9 point 9): the employer's benefits wait for the e-mailed
 * link, which can be sent again.
 */
export function EmailConfirmationNotice({ email }: { email: string }) {
  const actor = useFlow(confirmationLinkMachine, { id: 'confirmationLink' });
  const state = useSelector(actor, (snapshot) => snapshot.value);
  const error = useSelector(actor, (snapshot) => snapshot.context.error);

  return (
    <section className="lc-offerings-confirm" aria-labelledby="confirm-email-heading">
      <div>
        <h2 id="confirm-email-heading">Confirm your e-mail address</h2>
        <p>
          Your employer's benefits show here once you open the link we e-mailed to <strong>{email}</strong>.
        </p>
      </div>
      <Button variant="secondary" isLoading={state === 'sending'} onPress={() => actor.send({ type: 'SEND' })}>
        Send the link again
      </Button>
      {state === 'sent' && <Message severity="success">{EMAIL_CONFIRMATION_MESSAGES.linkSent}</Message>}
      {state === 'failed' && <Message severity="error">{error}</Message>}
    </section>
  );
}
