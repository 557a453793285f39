import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { AuditAction, AuditEvent } from '../../contract/admin.ts';
import type { adminAuditMachine } from '../../machines/adminAudit.machine.ts';
import { Button } from '../../widgets/Button.tsx';
import { Cell, Column, Row, Table, TableBody, TableHeader } from '../../widgets/Table.tsx';
import { Message } from '../../widgets/Message.tsx';
import { AdminListFrame } from './AdminParts.tsx';

export type AdminAuditActor = ActorRefFrom<typeof adminAuditMachine>;

const ACTION_LABELS: Record<AuditAction, string> = {
  'company.create': 'Created company',
  'company.update': 'Edited company',
  'company.deactivate': 'Deactivated company',
  'company.reactivate': 'Reactivated company',
  'staff.invite': 'Invited staff',
  'account.role_change': 'Changed role',
  'account.deactivate': 'Deactivated account',
  'account.reactivate': 'Reactivated account',
  'offering.create': 'Created offering',
  'offering.update': 'Edited offering',
  'offering.move': 'Moved offering',
  'offering.feature': 'Featured offering',
  'offering.unfeature': 'Unfeatured offering',
  'offering.publish': 'Published offering',
  'offering.unpublish': 'Unpublished offering',
  'offering_category.create': 'Created offering category',
  'offering_category.update': 'Edited offering category',
  'offering_category.move': 'Moved offering category',
  'survey_category.create': 'Created survey category',
  'survey_category.update': 'Edited survey category',
  'survey_template.create': 'Created survey template',
  'survey_template.update': 'Edited survey template',
  'survey_template.questions_replace': 'Changed survey questions',
};

const WHEN = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

function shown(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (Array.isArray(value)) return value.length > 0 ? value.join(', ') : 'none';
  return String(value);
}

/** The audit log, newest first, with what each change changed; older pages on demand. */
export function AdminAuditView({ audit }: { audit: AdminAuditActor }) {
  const events = useSelector(audit, (snapshot) => snapshot.context.events);
  const error = useSelector(audit, (snapshot) => snapshot.context.error);
  const isBusy = useSelector(audit, (snapshot) => snapshot.hasTag('busy'));
  const isFirstPage = useSelector(audit, (snapshot) => snapshot.context.events.length === 0);
  const hasMore = useSelector(audit, (snapshot) => snapshot.context.nextCursor !== null);
  const retry = () => audit.send({ type: 'RETRY' });

  return (
    <AdminListFrame heading="Audit log" isBusy={isBusy} loadError={isFirstPage ? error : null} onRetry={retry} notice={null}
      isLoaded={!(isFirstPage && isBusy)}>
      <Table aria-label="Audit log" className="lc-admin-table">
        <TableHeader>
          <Column isRowHeader>When</Column>
          <Column>Who</Column>
          <Column>What</Column>
          <Column>Changes</Column>
        </TableHeader>
        <TableBody items={events} renderEmptyState={() => <p className="lc-admin-empty">No changes recorded yet.</p>}>
          {(event) => <AuditRow event={event} />}
        </TableBody>
      </Table>
      {!isFirstPage && error && (
        <div className="lc-failure">
          <Message severity="error">{error}</Message>
          <Button variant="secondary" onPress={retry}>Try again</Button>
        </div>
      )}
      {hasMore && !error && (
        <Button variant="secondary" isLoading={isBusy} onPress={() => audit.send({ type: 'LOAD_MORE' })}>
          Show older changes
        </Button>
      )}
    </AdminListFrame>
  );
}

function AuditRow({ event }: { event: AuditEvent }) {
  return (
    <Row id={event.id}>
      <Cell>{WHEN.format(new Date(event.at))}</Cell>
      <Cell>{event.actor ? event.actor.full_name : <span className="lc-admin-table__detail">A removed account</span>}</Cell>
      <Cell>
        {ACTION_LABELS[event.action]} <span className="lc-admin-table__detail">#{event.subject_id}</span>
      </Cell>
      <Cell>
        <ul className="lc-admin-changes">
          {Object.entries(event.changes).map(([field, { before, after }]) => (
            <li key={field}>
              <strong>{field}</strong>: {shown(before)} → {shown(after)}
            </li>
          ))}
        </ul>
      </Cell>
    </Row>
  );
}
