import { useSelector } from '@xstate/react';
import type { emailedLinkMachine } from '../machines/emailedLink.ts';
import { SUPPORT_EMAIL } from '../services/account.messages.ts';
import { LinkButton } from '../widgets/Button.tsx';
import { Message } from '../widgets/Message.tsx';
import { Spinner } from '../widgets/Spinner.tsx';
import './forms.css';
import { useFlow } from '../machines/appSystem.tsx';

interface Destination {
  href: string;
  label: string;
}

/**
 * The screen of an e-mailed link (unlock, e-mail confirmation), driven by its emailedLinkMachine: the link is used at
 * once; loading, then success or failure with what to do next.
 */
export function EmailedLinkScreen({
  machine,
  token,
  text,
  next,
}: {
  machine: ReturnType<typeof emailedLinkMachine>;
  token: string;
  /** `heading` until the link has worked, `doneHeading` after: the page no longer asks for what is done. */
  text: { heading: string; doneHeading: string; loading: string; success: string; failure: string };
  next: { success: Destination; failure: Destination };
}) {
  const actor = useFlow(machine, { id: machine.id, input: { token } });
  const outcome = useSelector(actor, (snapshot) => snapshot.value);
  const error = useSelector(actor, (snapshot) => snapshot.context.error);
  const headingId = `${machine.id}-heading`;

  return (
    <section className="lc-account-screen" aria-labelledby={headingId} aria-busy={outcome === 'loading'}>
      <h1 id={headingId}>{outcome === 'success' ? text.doneHeading : text.heading}</h1>
      {outcome === 'loading' && (
        <>
          <Spinner />
          <p className="lc-account-screen__intro">{text.loading}</p>
        </>
      )}
      {outcome === 'success' && (
        <>
          <Message severity="success">{text.success}</Message>
          <LinkButton href={next.success.href}>{next.success.label}</LinkButton>
        </>
      )}
      {outcome === 'failure' && (
        <>
          <Message severity="error">{error}</Message>
          <p>{text.failure}</p>
          <p>
            Still stuck? <a href={`mailto:${SUPPORT_EMAIL}`}>Contact support</a>
          </p>
          <LinkButton href={next.failure.href} variant="secondary">{next.failure.label}</LinkButton>
        </>
      )}
    </section>
  );
}
