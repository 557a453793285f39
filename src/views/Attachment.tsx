import { useMachine } from '@xstate/react';
import { useParams } from 'react-router';
import { inspect } from '../app/inspector.ts';
import { attachmentMachine } from '../machines/attachment.machine.ts';
import { LinkButton } from '../widgets/Button.tsx';
import { Message } from '../widgets/Message.tsx';
import { PageHeading } from './PageHeading.tsx';

export default function Attachment() {
  const { fileKey = '' } = useParams();
  const [snapshot] = useMachine(attachmentMachine, { input: { fileKey }, inspect });
  if (!snapshot.matches('failed')) return null;
  return (
    <>
      <PageHeading title="Attachment" />
      <Message severity="error">{snapshot.context.error}</Message>
      <LinkButton href="/requests" variant="secondary">
        Back to your requests
      </LinkButton>
    </>
  );
}
