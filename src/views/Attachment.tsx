import { useSelector } from '@xstate/react';
import { useParams } from 'react-router';
import { useFlow } from '../machines/appSystem.tsx';
import { attachmentMachine } from '../machines/attachment.machine.ts';
import { LinkButton } from '../widgets/Button.tsx';
import { Message } from '../widgets/Message.tsx';
import { PageHeading } from './PageHeading.tsx';

export default function Attachment() {
  const { fileKey = '' } = useParams();
  const snapshot = useSelector(useFlow(attachmentMachine, { id: 'attachment', input: { fileKey } }), (state) => state);
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
