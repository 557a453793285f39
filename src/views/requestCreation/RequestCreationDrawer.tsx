import { useSelector } from '@xstate/react';
import { createContext, useContext } from 'react';
import type { SnapshotFrom } from 'xstate';
import type { RequestCreationActor } from '../../machines/app.machine.ts';
import { CATEGORY_DRAWER_TEXT, type requestCreationMachine } from '../../machines/requestCreation.machine.ts';
import { Button } from '../../widgets/Button.tsx';
import { Drawer } from '../../widgets/Drawer.tsx';
import { RetryMessage } from '../../widgets/Message.tsx';
import { Skeleton } from '../../widgets/Skeleton.tsx';
import { CategoryPicker } from './CategoryPicker.tsx';
import { SurveyConversation } from './SurveyConversation.tsx';
import { TemplateList } from './TemplateList.tsx';
import './requestCreation.css';

type RequestCreationSnapshot = SnapshotFrom<typeof requestCreationMachine>;

/** SPEC §2: the category drawer is titled by its mode, a category's list by its name, a survey by its template. */
function titleOf(snapshot: RequestCreationSnapshot): string {
  const { mode, category, survey } = snapshot.context;
  if (snapshot.matches('templates') && category) return `${category.name} Requests`;
  if (snapshot.matches('survey') && survey) return survey.name;
  return CATEGORY_DRAWER_TEXT[mode].title;
}

/** The drawer's actor, for its steps. */
const DrawerActorContext = createContext<RequestCreationActor | null>(null);

function useDrawerActor(): RequestCreationActor {
  return useContext(DrawerActorContext)!;
}

/** The request creation drawer (SPEC §2, §4), mounted once by the app layout and opened from any screen. */
export default function RequestCreationDrawer({ actor }: { actor: RequestCreationActor }) {
  const isOpen = useSelector(actor, (snapshot) => !snapshot.matches('closed'));
  const title = useSelector(actor, titleOf);
  const view = useSelector(actor, (snapshot) =>
    snapshot.matches('categories') ? 'categories' : snapshot.matches('templates') ? 'templates' : 'survey',
  );
  return (
    <Drawer isOpen={isOpen} title={title} isDismissable className="lc-request-drawer"
      // Close, Escape and the backdrop all ask the chart, which may first ask the user (SPEC §4).
      onOpenChange={(open) => !open && actor.send({ type: 'CLOSE' })}>
      <DrawerActorContext.Provider value={actor}>
        {view === 'categories' && <CategoriesStep />}
        {view === 'templates' && <TemplatesStep />}
        {view === 'survey' && <SurveyStep />}
      </DrawerActorContext.Provider>
    </Drawer>
  );
}

function LoadFailure({ message }: { message: string }) {
  const actor = useDrawerActor();
  return (
    <RetryMessage onRetry={() => actor.send({ type: 'RETRY' })}>{message}</RetryMessage>
  );
}

function CategoriesStep() {
  const actor = useDrawerActor();
  const mode = useSelector(actor, (snapshot) => snapshot.context.mode);
  const categories = useSelector(actor, (snapshot) => snapshot.context.categories);
  const isLoading = useSelector(actor, (snapshot) => snapshot.matches({ categories: 'loading' }));
  const failure = useSelector(actor, (snapshot) => (snapshot.matches({ categories: 'failed' }) ? snapshot.context.error : null));
  if (isLoading) return <Skeleton lines={6} />;
  if (failure) return <LoadFailure message={failure} />;
  return (
    <CategoryPicker prompt={CATEGORY_DRAWER_TEXT[mode].prompt} categories={categories}
      onPick={(category) => actor.send({ type: 'PICK_CATEGORY', category })} />
  );
}

function TemplatesStep() {
  const actor = useDrawerActor();
  const category = useSelector(actor, (snapshot) => snapshot.context.category);
  const templates = useSelector(actor, (snapshot) => snapshot.context.templates);
  const isLoading = useSelector(actor, (snapshot) => snapshot.matches({ templates: 'loading' }));
  const failure = useSelector(actor, (snapshot) => (snapshot.matches({ templates: 'failed' }) ? snapshot.context.error : null));
  return (
    <div className="lc-drawer-templates">
      <Button variant="tertiary" className="lc-drawer-templates__back" onPress={() => actor.send({ type: 'BACK' })}>
        Back to categories
      </Button>
      {isLoading && <Skeleton lines={5} />}
      {failure && <LoadFailure message={failure} />}
      {!isLoading && !failure && (
        <TemplateList templates={templates} label={`${category?.name ?? ''} requests`}
          onPick={(survey) => actor.send({ type: 'PICK_TEMPLATE', survey })} />
      )}
    </div>
  );
}

function SurveyStep() {
  const actor = useDrawerActor();
  const survey = useSelector(actor, (snapshot) => snapshot.children.survey);
  return survey ? <SurveyConversation actor={survey} /> : null;
}
