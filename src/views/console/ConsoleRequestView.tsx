import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { User } from '../../contract/account.ts';
import { type ConsoleRequest, STATUS_TRANSITIONS } from '../../contract/console.ts';
import type { RequestStatus } from '../../contract/requests.ts';
import type {
  consoleRequestMachine} from '../../machines/consoleRequest.machine.ts';
import {
  REQUEST_NOT_FOUND,
  assignableStaff,
  isAssignedTo,
  isBusy,
} from '../../machines/consoleRequest.machine.ts';
import { attachmentHref } from '../../services/threadRules.ts';
import { Button } from '../../widgets/Button.tsx';
import { relativeTime } from '../../widgets/format.ts';
import { Menu, MenuItem, MenuTrigger } from '../../widgets/Menu.tsx';
import { Message } from '../../widgets/Message.tsx';
import { Skeleton } from '../../widgets/Skeleton.tsx';
import { RequestStatusBadge } from '../requests/RequestStatusBadge.tsx';
import { ConsoleComposer } from './ConsoleComposer.tsx';
import { ConsoleThread } from './ConsoleThread.tsx';
import { ServiceTargets } from './ServiceLevelBadge.tsx';

export type ConsoleRequestActor = ActorRefFrom<typeof consoleRequestMachine>;
/** The signed-in concierge or admin, as the console needs them. */
export type ConsoleStaffUser = Pick<User, 'email' | 'full_name'>;

/** What the button of an allowed status change (STATUS_TRANSITIONS) says. */
function statusActionLabel(from: RequestStatus, to: RequestStatus): string {
  if (to === 'closed') return 'Mark completed';
  return from === 'closed' ? 'Reopen' : 'Start work';
}

export interface ConsoleRequestViewProps {
  request: ConsoleRequestActor;
  me: ConsoleStaffUser;
}

/** The request's place while it loads. */
export function ConsoleRequestLoading() {
  return <Skeleton lines={8} blockHeight={48} className="lc-console-request__loading" />;
}

/** One request: what it is, who asked, what they answered, the whole thread, and everything staff do with it. */
export function ConsoleRequestView({ request, me }: ConsoleRequestViewProps) {
  const loaded = useSelector(request, (snapshot) => snapshot.context.request);
  const isLoading = useSelector(request, (snapshot) => snapshot.matches('loading'));
  const loadError = useSelector(request, (snapshot) => (snapshot.matches('failed') ? snapshot.context.loadError : null));

  if (isLoading) return <ConsoleRequestLoading />;
  if (loadError !== null || loaded === null) {
    return (
      <div className="lc-failure">
        <Message severity="error">{loadError}</Message>
        {loadError !== REQUEST_NOT_FOUND && (
          <Button variant="secondary" onPress={() => request.send({ type: 'RETRY' })}>
            Try again
          </Button>
        )}
      </div>
    );
  }
  return (
    <article className="lc-console-request" aria-labelledby="console-request-title">
      <header className="lc-console-request__header">
        <h1 id="console-request-title">{loaded.name}</h1>
        <p className="lc-console-request__facts">
          <RequestStatusBadge status={loaded.status} />
          <span>Requested {relativeTime(loaded.issued_at)}</span>
          {loaded.survey_category_name && <span>{loaded.survey_category_name}</span>}
        </p>
      </header>
      <RequestActions request={request} loaded={loaded} me={me} />
      {loaded.service_level && <RequestTargets request={request} loaded={loaded} />}
      <div className="lc-console-request__columns">
        <div className="lc-console-request__conversation">
          <ConsoleThread request={loaded} />
          <ConsoleComposer request={request} />
        </div>
        <aside className="lc-console-request__aside" aria-label="About the request">
          <EmployeeCard request={loaded} />
          <SurveyAnswers request={loaded} />
        </aside>
      </div>
    </article>
  );
}

function RequestTargets({ request, loaded }: { request: ConsoleRequestActor; loaded: ConsoleRequest }) {
  const busy = useSelector(request, isBusy);
  const saving = useSelector(request, (snapshot) => snapshot.matches({ loaded: { activity: 'settingWaiting' } }));
  if (!loaded.service_level) return null;
  return (
    <ServiceTargets
      level={loaded.service_level}
      isCompleted={loaded.status === 'closed'}
      isBusy={busy}
      isSaving={saving}
      onWaitingChange={(waiting) => request.send({ type: 'SET_WAITING', waiting })}
    />
  );
}

function RequestActions({ request, loaded, me }: { request: ConsoleRequestActor; loaded: ConsoleRequest; me: ConsoleStaffUser }) {
  const busy = useSelector(request, isBusy);
  const inFlight = useSelector(request, (snapshot) => {
    for (const state of ['claiming', 'assigning', 'changingStatus'] as const) {
      if (snapshot.matches({ loaded: { activity: state } })) return state;
    }
    return null;
  });
  const actionError = useSelector(request, (snapshot) => snapshot.context.actionError);
  const assignable = useSelector(request, (snapshot) => assignableStaff(snapshot.context, me.email));
  const mine = isAssignedTo(loaded, me.email);

  return (
    <section className="lc-console-actions" aria-label="Assignment and status">
      <p className="lc-console-actions__assignee">
        {loaded.assignee ? (
          <>
            Assigned to <strong>{mine ? `you (${loaded.assignee.full_name})` : loaded.assignee.full_name}</strong>
          </>
        ) : (
          'Unassigned'
        )}
      </p>
      <div className="lc-console-actions__buttons">
        {!mine && (
          <Button
            variant="secondary"
            isLoading={inFlight === 'claiming'}
            isDisabled={busy && inFlight !== 'claiming'}
            onPress={() => request.send({ type: 'CLAIM' })}
          >
            {loaded.assignee ? 'Assign to me' : 'Claim'}
          </Button>
        )}
        {assignable.length > 0 && (
          <MenuTrigger>
            <Button
              variant="secondary"
              isLoading={inFlight === 'assigning'}
              isDisabled={busy && inFlight !== 'assigning'}
            >
              Assign to…
            </Button>
            {/* Named by its trigger, 'Assign to…'. */}
            <Menu onAction={(key) => request.send({ type: 'ASSIGN', assigneeId: Number(key) })}>
              {assignable.map((member) => (
                <MenuItem key={member.id} id={member.id} description={member.role === 'admin' ? 'Admin' : 'Concierge'}>
                  {member.full_name}
                </MenuItem>
              ))}
            </Menu>
          </MenuTrigger>
        )}
        {STATUS_TRANSITIONS[loaded.status].map((status) => (
          <Button
            key={status}
            variant={status === 'closed' ? 'primary' : 'secondary'}
            isLoading={inFlight === 'changingStatus'}
            isDisabled={busy && inFlight !== 'changingStatus'}
            onPress={() => request.send({ type: 'CHANGE_STATUS', status })}
          >
            {statusActionLabel(loaded.status, status)}
          </Button>
        ))}
      </div>
      {actionError && <Message severity="error">{actionError}</Message>}
    </section>
  );
}

function EmployeeCard({ request }: { request: ConsoleRequest }) {
  const { employee } = request;
  return (
    <section className="lc-console-card" aria-labelledby="console-employee-heading">
      <h2 id="console-employee-heading" className="lc-console-section-title">
        Employee
      </h2>
      <p className="lc-console-card__name">{employee.full_name}</p>
      <p>
        <a href={`mailto:${employee.email}`}>{employee.email}</a>
      </p>
      <p className="lc-console-card__company">
        {employee.companies.length > 0 ? employee.companies.map((company) => company.name).join(', ') : 'No company'}
      </p>
    </section>
  );
}

function SurveyAnswers({ request }: { request: ConsoleRequest }) {
  const answers = request.survey_answers;
  return (
    <section className="lc-console-card" aria-labelledby="console-answers-heading">
      <h2 id="console-answers-heading" className="lc-console-section-title">
        Survey answers
      </h2>
      {answers.length === 0 ? (
        <p className="lc-console-card__empty">{request.details ?? 'No answers were given.'}</p>
      ) : (
        <dl className="lc-console-answers">
          {answers.map((answer) => (
            <div key={answer.question_id} className="lc-console-answers__item">
              <dt>{answer.label}</dt>
              <dd>
                {answer.attachment_key ? (
                  <a href={attachmentHref(answer.attachment_key)} target="_blank" rel="noopener noreferrer">
                    {answer.answer} (opens in a new tab)
                  </a>
                ) : (
                  answer.answer
                )}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
