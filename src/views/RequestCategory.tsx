import { useSelector } from '@xstate/react';
import { useParams } from 'react-router';
import { requestCategoryMachine } from '../machines/requestCategory.machine.ts';
import { RetryMessage } from '../widgets/Message.tsx';
import { Skeleton } from '../widgets/Skeleton.tsx';
import { PageHeading } from './PageHeading.tsx';
import { TemplateList } from './requestCreation/TemplateList.tsx';
import './requestCreation/requestCreation.css';
import { useAppActor, useFlow } from '../machines/appSystem.tsx';

/** SPEC §2 Category page: '{category name} Requests' and its request templates, each beginning its survey. */
export default function RequestCategory() {
  const { categoryId = '' } = useParams();
  // A new category id is a new page: the key restarts the chart.
  return <CategoryPage key={categoryId} categoryId={Number(categoryId)} />;
}

function CategoryPage({ categoryId }: { categoryId: number }) {
  const app = useAppActor();
  const actor = useFlow(requestCategoryMachine, { id: 'requestCategory', input: { categoryId } });
  const page = useSelector(actor, (snapshot) => snapshot.context.page);
  const failure = useSelector(actor, (snapshot) => (snapshot.matches('failed') ? snapshot.context.error : null));

  if (failure) {
    return (
      <>
        <PageHeading title="Requests" />
        <RetryMessage onRetry={() => actor.send({ type: 'RETRY' })}>{failure}</RetryMessage>
      </>
    );
  }
  if (!page) return <Skeleton lines={6} blockHeight={40} />;
  const { survey_category: category, request_surveys: templates } = page;
  return (
    <div className="lc-request-category">
      <PageHeading title={`${category.name} Requests`}>
        <p className="lc-request-category__intro">Choose a request to get started: a few questions, and a concierge takes it from there.</p>
      </PageHeading>
      <TemplateList templates={templates} label={`${category.name} requests`}
        onPick={(survey) => app.send({ type: 'START_SURVEY', survey })} />
    </div>
  );
}
