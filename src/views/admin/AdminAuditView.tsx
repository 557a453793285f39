import { parseDate } from '@internationalized/date';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { AUDIT_PERIOD_ERROR, type AuditAction, type AuditEvent } from '../../contract/admin.ts';
import { type AuditFilters, type adminAuditMachine, isPeriodBackwards } from '../../machines/adminAudit.machine.ts';
import { Button } from '../../widgets/Button.tsx';
import { DatePicker } from '../../widgets/DatePicker.tsx';
import { Select } from '../../widgets/Select.tsx';
import { Cell, Column, Row, Table, TableBody, TableHeader } from '../../widgets/Table.tsx';
import { Message } from '../../widgets/Message.tsx';
import { AdminListFrame } from './AdminParts.tsx';

export type AdminAuditActor = ActorRefFrom<typeof adminAuditMachine>;

const ACTION_LABELS: Record<AuditAction, string> = {
  'company.create': 'Created company',
  'company.update': 'Edited company',
  'company.deactivate': 'Deactivated company',
  'company.reactivate': 'Reactivated company',
  'company.sso_update': 'Changed single sign-on',
  'company.sso_remove': 'Removed single sign-on',
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
  'scim_token.create': 'Created SCIM token',
  'scim_token.rotate': 'Rotated SCIM token',
  'scim_token.revoke': 'Revoked SCIM token',
  'service_policy.create': 'Created service targets',
  'service_policy.update': 'Edited service targets',
  'saved_reply.create': 'Created saved reply',
  'saved_reply.update': 'Edited saved reply',
  'saved_reply.archive': 'Archived saved reply',
  'saved_reply.restore': 'Restored saved reply',
  'assignment.default_cap_change': 'Changed the default cap of open requests',
  'account.cap_change': 'Changed a cap of open requests',
  'hours_estimate.update': 'Changed hours-saved estimate',
  'report_settings.update': 'Changed employer report settings',
};

/** The audited fields whose words are not their column's name with spaces (issue 32: never a raw column name). */
const FIELD_LABELS: Record<string, string> = {
  email: 'E-mail',
  email_domains: 'E-mail domains',
  mfa_policy: 'MFA policy',
  slug: 'Address name',
  logo_upload_key: 'Logo',
  image_upload_key: 'Image',
  image_url: 'Image',
  provider_logo_url: 'Provider logo',
  external_id: 'External ID',
  for_alpha: 'Offered in the app',
  category_id: 'Category',
  company_ids: 'Companies',
  request_survey_cta: 'Help button',
  request_survey_id: 'Help survey',
  request_survey_name: 'Help survey name',
};

/** A field of a change in words: its label, or its name as a sentence ('last_name' reads 'Last name'). */
export function fieldLabel(field: string): string {
  const label = FIELD_LABELS[field];
  if (label) return label;
  const words = field.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const ANYONE = 0;
const EVERY_KIND = 'all';
const KIND_OPTIONS = [
  { id: EVERY_KIND, label: 'Every kind' },
  ...Object.entries(ACTION_LABELS).map(([id, label]) => ({ id, label })),
];

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
  const hasMore = useSelector(audit, (snapshot) => snapshot.context.nextCursor !== null && !isPeriodBackwards(snapshot.context.filters));
  const retry = () => audit.send({ type: 'RETRY' });

  return (
    <AdminListFrame heading="Audit log" isBusy={isBusy} loadError={isFirstPage ? error : null} onRetry={retry} notice={null}
      isLoaded={!(isFirstPage && isBusy)} filters={<AuditFilterBar audit={audit} />}>
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

/** Who, what kind, which days (issue 32): each change of a filter asks for the log again. */
function AuditFilterBar({ audit }: { audit: AdminAuditActor }) {
  const filters = useSelector(audit, (snapshot) => snapshot.context.filters);
  const actors = useSelector(audit, (snapshot) => snapshot.context.actors);
  const filter = (changes: Partial<AuditFilters>) => audit.send({ type: 'FILTER', filters: { ...filters, ...changes } });
  const isBackwards = isPeriodBackwards(filters);
  return (
    <div className="lc-admin-filters" role="group" aria-label="Filters">
      <Select label="Who" value={filters.actorId ?? ANYONE}
        options={[{ id: ANYONE, label: 'Anyone' }, ...actors.map((actor) => ({ id: actor.id, label: actor.full_name }))]}
        onChange={(actorId) => filter({ actorId: actorId === ANYONE ? null : actorId })} />
      <Select label="Kind of change" value={filters.action ?? EVERY_KIND} options={KIND_OPTIONS}
        onChange={(kind) => filter({ action: kind === EVERY_KIND ? null : (kind as AuditAction) })} />
      <DatePicker label="From" value={filters.fromDay ? parseDate(filters.fromDay) : null}
        onChange={(day) => filter({ fromDay: day?.toString() ?? null })} />
      <DatePicker label="To" value={filters.toDay ? parseDate(filters.toDay) : null}
        onChange={(day) => filter({ toDay: day?.toString() ?? null })} errorMessage={isBackwards ? AUDIT_PERIOD_ERROR : undefined} />
    </div>
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
              <strong>{fieldLabel(field)}</strong>: {shown(before)} → {shown(after)}
            </li>
          ))}
        </ul>
      </Cell>
    </Row>
  );
}
