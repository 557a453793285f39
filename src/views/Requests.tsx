import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { type RequestsTab, hasCompletedRequests, requestsListMachine } from '../machines/requestsList.machine.ts';
import { type RequestsSearchActor, requestsSearchMachine } from '../machines/requestsSearch.machine.ts';
import { isSearching } from '../machines/search.ts';
import { type ClientRequest, REQUESTS_TEXT, requestCount } from '../services/threadRules.ts';
import { Button } from '../widgets/Button.tsx';
import { Message } from '../widgets/Message.tsx';
import { Skeleton } from '../widgets/Skeleton.tsx';
import { Tabs, tabId } from '../widgets/Tabs.tsx';
import { PageHeading } from './PageHeading.tsx';
import { SearchBox, SearchOutcome } from './SearchOutcome.tsx';
import { RequestListItem } from './requests/RequestListItem.tsx';
import './requests/requests.css';
import { useFlow } from '../machines/appSystem.tsx';

export type RequestsListActor = ActorRefFrom<typeof requestsListMachine>;

export const REQUESTS_LOAD_FAILED = "We couldn't load your requests. Please try again.";

function RequestSection({ id, title, requests }: { id: string; title: string; requests: ClientRequest[] }) {
  return (
    <section className="lc-requests__section" aria-labelledby={id}>
      <h2 id={id} className="lc-requests__section-title">{title}</h2>
      <ul className="lc-requests__list">
        {requests.map((request) => <RequestListItem key={request.id} request={request} />)}
      </ul>
    </section>
  );
}

function ToDoPanel({ inProgress, inQueue }: { inProgress: ClientRequest[]; inQueue: ClientRequest[] }) {
  if (inProgress.length === 0 && inQueue.length === 0) {
    return <p className="lc-requests__empty">{REQUESTS_TEXT.noOpenRequests}</p>;
  }
  return (
    <>
      {inProgress.length > 0 && (
        <RequestSection id="requests-in-progress" title={requestCount(inProgress.length, 'in progress')} requests={inProgress} />
      )}
      {inProgress.length > 0 && inQueue.length > 0 && <hr className="lc-requests__divider" />}
      {inQueue.length > 0 && (
        <RequestSection id="requests-in-queue" title={requestCount(inQueue.length, 'in queue')} requests={inQueue} />
      )}
    </>
  );
}

/**
 * SPEC §2 Requests: the 'Create a request' button (large screens) and the 'To do' / 'Completed' tabs; above them the
 * search of the employee's requests (issue 32), whose results take the tabs' place while a search is on.
 */
export function RequestsView({ requests, search }: { requests: RequestsListActor; search: RequestsSearchActor }) {
  const searching = useSelector(search, isSearching);
  const isBusy = useSelector(requests, (snapshot) => snapshot.hasTag('busy'));

  return (
    <div className="lc-requests" aria-busy={isBusy}>
      <PageHeading title="Requests">
        <Button className="lc-requests__create" onPress={() => requests.send({ type: 'CREATE_REQUEST' })}>
          {REQUESTS_TEXT.createRequest}
        </Button>
      </PageHeading>

      <SearchBox search={search} label="Search your requests" placeholder="A request's name or a word from its messages" />
      {searching ? (
        <SearchOutcome search={search}>
          {(found) => (
            <ul className="lc-requests__list" aria-label="Requests found">
              {found.map((request) => <RequestListItem key={request.id} request={request} />)}
            </ul>
          )}
        </SearchOutcome>
      ) : (
        <RequestLists requests={requests} />
      )}
    </div>
  );
}

/** The failure, the skeleton or the tabs of the employee's requests. */
function RequestLists({ requests }: { requests: RequestsListActor }) {
  const groups = useSelector(requests, (snapshot) => snapshot.context.groups);
  const tab = useSelector(requests, (snapshot) => snapshot.context.tab);
  const isBusy = useSelector(requests, (snapshot) => snapshot.hasTag('busy'));
  const failed = useSelector(requests, (snapshot) => snapshot.matches('failed'));
  const showsCompleted = groups !== null && hasCompletedRequests({ groups });

  const tabs: { tab: RequestsTab; title: string }[] = groups
    ? [
        { tab: 'toDo', title: REQUESTS_TEXT.toDoTab(groups.inProgress.length + groups.inQueue.length) },
        ...(showsCompleted ? [{ tab: 'completed' as const, title: REQUESTS_TEXT.completedTab(groups.completed.length) }] : []),
      ]
    : [];
  const selected = tabs.find((candidate) => candidate.tab === tab) ?? tabs[0];

  return (
    <>
      {failed && (
        <div className="lc-requests__failure">
          <Message severity="error">{REQUESTS_LOAD_FAILED}</Message>
          <Button variant="secondary" onPress={() => requests.send({ type: 'RETRY' })}>Try again</Button>
        </div>
      )}

      {groups === null && isBusy && <Skeleton lines={4} blockHeight={72} className="lc-requests__skeleton" />}

      {groups && selected && (
        <Tabs
          label="Your requests"
          titles={tabs.map((candidate) => candidate.title)}
          selectedKey={tabId(selected.title)}
          onSelectionChange={(key) => {
            const chosen = tabs.find((candidate) => tabId(candidate.title) === key);
            if (chosen) requests.send({ type: 'SELECT_TAB', tab: chosen.tab });
          }}
          className="lc-requests__tabs"
        >
          {(title) =>
            tabs.find((candidate) => candidate.title === title)?.tab === 'completed' ? (
              <RequestSection id="requests-completed" title={requestCount(groups.completed.length, 'completed')}
                requests={groups.completed} />
            ) : (
              <ToDoPanel inProgress={groups.inProgress} inQueue={groups.inQueue} />
            )
          }
        </Tabs>
      )}
    </>
  );
}

/** The Requests route: a fresh list actor each time the screen is entered, so every entry refreshes (SPEC §2). */
export default function Requests() {
  const requests = useFlow(requestsListMachine, { id: 'requestsList' });
  const search = useFlow(requestsSearchMachine, { id: 'requestsSearch' });
  return <RequestsView requests={requests} search={search} />;
}
