import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { type offeringDrawerMachine, helpSurveyOf, openDetail } from '../../machines/offeringDrawer.machine.ts';
import { Button } from '../../widgets/Button.tsx';
import { Drawer } from '../../widgets/Drawer.tsx';
import { Message } from '../../widgets/Message.tsx';
import { Skeleton } from '../../widgets/Skeleton.tsx';
import { OfferingDetailHeader, OfferingHelp, OfferingSectionView } from './OfferingSections.tsx';

export type OfferingDrawerActor = ActorRefFrom<typeof offeringDrawerMachine>;

/**
 * SPEC §2 Offering detail drawer: provider logo, heading ('Partner offer' after it for products), the offering's
 * name, its sections, then the help block. The dialog is named by the heading.
 */
export function OfferingDrawer({ actor }: { actor: OfferingDrawerActor }) {
  const isOpen = useSelector(actor, (snapshot) => snapshot.matches('open'));
  const offering = useSelector(actor, (snapshot) => snapshot.context.offering);
  const detail = useSelector(actor, openDetail);
  const isFetching = useSelector(actor, (snapshot) => snapshot.hasTag('fetching'));
  const hasFailed = useSelector(actor, (snapshot) => snapshot.matches({ open: 'failed' }));
  const helpSurvey = helpSurveyOf(detail);
  const onFollow = (link: { text: string; url: string }) => actor.send({ type: 'FOLLOW_LINK', ...link });

  return (
    <Drawer isOpen={isOpen} onOpenChange={(open) => !open && actor.send({ type: 'CLOSE' })}
      title={offering?.heading ?? ''} isTitleHidden isDismissable className="lc-offering-drawer">
      {offering && (
        <div className="lc-offering-detail" aria-busy={isFetching}>
          <OfferingDetailHeader offering={offering} name={detail?.name} />
          {hasFailed && (
            <div className="lc-failure">
              <Message severity="error">We couldn't load the details of this offering.</Message>
              <Button variant="secondary" onPress={() => actor.send({ type: 'RETRY' })}>Try again</Button>
            </div>
          )}
          {!detail && isFetching && <Skeleton lines={6} />}
          {detail?.sections.map((section) => <OfferingSectionView key={section.id} section={section} onFollow={onFollow} />)}
          {detail && helpSurvey && <OfferingHelp cta={detail.request_survey_cta ?? ''} onRequest={() => actor.send({ type: 'REQUEST_HELP' })} />}
        </div>
      )}
    </Drawer>
  );
}
