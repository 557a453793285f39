import type { ActorRefFrom } from 'xstate';
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import type { StaffCap } from '../../contract/assignment.ts';
import type { CapDraft, adminStaffCapsMachine, adminTeamDefaultMachine } from '../../machines/adminAssignment.machine.ts';
import { Message, RetryMessage } from '../../widgets/Message.tsx';
import { Skeleton } from '../../widgets/Skeleton.tsx';
import { Cell } from '../../widgets/Table.tsx';
import { TextInput } from '../../widgets/TextInput.tsx';
import { ActionsCell, AdminTable, CollectionForm, CollectionFrame, EditButton, useIsListed } from './AdminCollection.tsx';

export type AdminTeamDefaultActor = ActorRefFrom<typeof adminTeamDefaultMachine>;
export type AdminStaffCapsActor = ActorRefFrom<typeof adminStaffCapsMachine>;

/** Assignment: each staff member's cap of open requests, and above them the team's default. */
export function AdminAssignmentView({ teamDefault, caps }: { teamDefault: AdminTeamDefaultActor; caps: AdminStaffCapsActor }) {
  return <StaffCapsView actor={caps} teamDefault={<TeamDefault actor={teamDefault} />} />;
}

/** The team's default cap: one record of its own flow, shown inside the Assignment screen. */
export function TeamDefault({ actor }: { actor: AdminTeamDefaultActor }) {
  const settings = useSelector(actor, (snapshot) => snapshot.context.items);
  const loadError = useSelector(actor, (snapshot) => snapshot.context.loadError);
  const notice = useSelector(actor, (snapshot) => snapshot.context.notice);
  const isBusy = useSelector(actor, (snapshot) => snapshot.hasTag('busy'));
  const canChange = useIsListed(actor);
  const [setting] = settings ?? [];
  return (
    <section className="lc-admin-team-default" aria-labelledby="team-default-heading" aria-busy={isBusy}>
      <h2 id="team-default-heading">Team default</h2>
      {notice && <Message key={notice} severity="success">{notice}</Message>}
      {loadError ? (
        <RetryMessage onRetry={() => actor.send({ type: 'RETRY' })}>{loadError}</RetryMessage>
      ) : setting ? (
        <p>
          New requests go in turn to the available staff under their cap; without a cap of their own, it is{' '}
          <strong>{setting.default_open_request_cap} open requests</strong>.{' '}
          <EditButton actor={actor} itemId={setting.id} label="Edit the default cap" isDisabled={!canChange} />
        </p>
      ) : (
        <Skeleton lines={1} />
      )}
      <CollectionForm<CapDraft> actor={actor} noun="default cap">
        {(draft, fieldErrors, _isSaving, change) => (
          <TextInput label="Default cap of open requests" type="number" isRequired value={draft.cap}
            onChange={(cap) => change({ cap })} errorMessage={fieldErrors.cap}
            description="For everyone without a cap of their own. 0 assigns them nothing automatically." />
        )}
      </CollectionForm>
    </section>
  );
}

export function StaffCapsView({ actor, teamDefault }: { actor: AdminStaffCapsActor; teamDefault?: ReactNode }) {
  const canChange = useIsListed(actor);
  return (
    <CollectionFrame actor={actor} heading="Assignment">
      {(staff: StaffCap[]) => (
        <>
          {teamDefault}
          <h2>Caps of open requests</h2>
          <AdminTable aria-label="Caps of open requests" columns={['Staff member', 'Availability', 'Open requests', 'Cap']} items={staff} dependencies={[canChange]} empty="No active concierges or admins.">
            {(member) => (
              <>
                <Cell>
                  <span className="lc-admin-table__name">{member.full_name}</span>
                  <span className="lc-admin-table__detail">{member.email}</span>
                </Cell>
                <Cell>{member.available ? 'Available' : 'Away'}</Cell>
                <Cell>{member.open_requests}</Cell>
                <Cell>{member.cap_override === null ? `${member.open_request_cap} (default)` : member.open_request_cap}</Cell>
                <ActionsCell>
                  <EditButton actor={actor} itemId={member.id} label={`Edit the cap of ${member.full_name}`} isDisabled={!canChange} />
                </ActionsCell>
              </>
            )}
          </AdminTable>
          <CollectionForm<CapDraft> actor={actor} noun="cap">
            {(draft, fieldErrors, _isSaving, change) => (
              <TextInput label="Cap of open requests" type="number" value={draft.cap}
                onChange={(cap) => change({ cap })} errorMessage={fieldErrors.cap}
                description="Leave it empty for the team's default." />
            )}
          </CollectionForm>
        </>
      )}
    </CollectionFrame>
  );
}
