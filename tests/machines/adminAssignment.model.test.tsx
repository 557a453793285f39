/**
 * The admin screens of assignment and saved replies (issue 28), each configuration of the admin collection machine run
 * through every transition of its statechart against its real view (adminCollection.support.tsx).
 */
import { screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import { type AssignmentSettings, SAVED_REPLY_ERRORS, type SavedReply, type SavedReplyRequest, type StaffCap } from '../../src/contract/assignment.ts';
import { type CapDraft, adminStaffCapsMachine, adminTeamDefaultMachine, capOf } from '../../src/machines/adminAssignment.machine.ts';
import { adminSavedRepliesMachine } from '../../src/machines/adminSavedReplies.machine.ts';
import { type AdminStaffCapsActor, type AdminTeamDefaultActor, StaffCapsView, TeamDefault } from '../../src/views/admin/AdminAssignmentView.tsx';
import { type AdminSavedRepliesActor, AdminSavedRepliesView } from '../../src/views/admin/AdminSavedRepliesView.tsx';
import { expectFieldMessages } from './adminApi.support.ts';
import { clean, describeCollection, rowsOf, textbox, typeInto, untouched } from './adminCollection.support.tsx';
import { networkError, serverRefusal } from './httpFailures.support.ts';
import { doneEvent, errorEvent } from './modelPaths.support.ts';

const networkDown = networkError();

// ---- Saved replies ----

const savedReply = (fields: Pick<SavedReply, 'id' | 'title' | 'short_code' | 'body_markdown'> & Partial<SavedReply>): SavedReply => ({
  active: true,
  updated_at: '2026-01-05T09:00:00.000Z',
  ...fields,
});
const WELCOME = savedReply({ id: 1, title: 'Welcome', short_code: 'welcome', body_markdown: 'Hi {{employee_first_name}}!' });
const OLD = savedReply({ id: 2, title: 'Old hours', short_code: 'hours', body_markdown: 'We open at 8.', active: false });
const THANKS = savedReply({ id: 3, title: 'Thanks', short_code: 'thanks', body_markdown: 'Thanks, {{employee_first_name}}.' });
const CODE_TAKEN = SAVED_REPLY_ERRORS.shortCodeTaken('thanks');
const replyAnswer = (saved: SavedReply) => ({ saved_reply: saved });

describeCollection<SavedReply, SavedReplyRequest>({
  machine: adminSavedRepliesMachine,
  heading: 'Saved replies',
  view: (actor) => <AdminSavedRepliesView replies={actor as unknown as AdminSavedRepliesActor} />,
  routes: [
    { method: 'GET', path: /^admin\/saved_replies$/, id: 'list', answer: (replies: SavedReply[]) => ({ saved_replies: replies }) },
    { method: 'POST', path: /^admin\/saved_replies$/, id: 'save', answer: replyAnswer },
    { method: 'PATCH', path: /^admin\/saved_replies\/\d+$/, id: 'save', answer: replyAnswer },
    { method: 'POST', path: /^admin\/saved_replies\/\d+\/(archive|restore)$/, id: 'change', answer: replyAnswer },
  ],
  events: [
    doneEvent('list', [WELCOME, OLD], 'list'),
    doneEvent('list', [], 'no replies'),
    errorEvent('list', networkDown, 'list fails'),
    { label: 'retry', event: { type: 'RETRY' } },
    { label: 'new reply', event: { type: 'NEW' } },
    { label: 'edit /welcome', event: { type: 'EDIT', itemId: WELCOME.id } },
    { label: 'fill in the reply', event: { type: 'CHANGE', changes: { title: 'Thanks', short_code: 'thanks', body_markdown: 'Thanks, {{first_name}}.' } } },
    { label: 'fix the placeholder', event: { type: 'CHANGE', changes: { body_markdown: 'Thanks, {{employee_first_name}}.' } } },
    { label: 'retitle /welcome', event: { type: 'CHANGE', changes: { title: 'Hello' } } },
    { label: 'save', event: { type: 'SAVE' } },
    doneEvent('save', THANKS, 'created'),
    doneEvent('save', { ...WELCOME, title: 'Hello' }, 'updated'),
    errorEvent('save', serverRefusal(409, CODE_TAKEN, { short_code: CODE_TAKEN }), 'code taken'),
    errorEvent('save', networkDown, 'save fails'),
    { label: 'cancel', event: { type: 'CANCEL' } },
    { label: 'keep editing', event: { type: 'KEEP_EDITING' } },
    { label: 'discard', event: { type: 'DISCARD' } },
    { label: 'archive /welcome', event: { type: 'SET', itemId: WELCOME.id, setting: { field: 'active', value: false } } },
    { label: 'restore /hours', event: { type: 'SET', itemId: OLD.id, setting: { field: 'active', value: true } } },
    { label: 'confirm', event: { type: 'CONFIRM' } },
    doneEvent('change', { ...WELCOME, active: false }, 'archived'),
    doneEvent('change', { ...OLD, active: true }, 'restored'),
    errorEvent('change', networkDown, 'toggle fails'),
  ],
  offer: ({ context }, { label }) => {
    const { form, change } = context;
    const draft = form?.draft;
    const isNew = form?.itemId === null;
    const isWelcome = form?.itemId === WELCOME.id;
    switch (label) {
      case 'new reply':
      case 'edit /welcome':
      case 'archive /welcome':
      case 'restore /hours':
        return untouched(context);
      case 'fill in the reply':
        return isNew && draft?.title === '';
      case 'fix the placeholder':
        return isNew && draft?.body_markdown === 'Thanks, {{first_name}}.' && !clean(context);
      case 'retitle /welcome':
        return isWelcome && draft?.title === 'Welcome';
      case 'save':
        return (isNew && draft?.title === '') || (isNew && draft?.title === 'Thanks' && clean(context)) || (isWelcome && draft?.title === 'Hello');
      case 'created':
      case 'code taken':
        return isNew;
      case 'updated':
      case 'save fails':
        return isWelcome;
      case 'cancel':
        return change?.itemId === WELCOME.id || (isNew && draft?.title === '' && clean(context)) || (isWelcome && draft?.title === 'Hello' && clean(context));
      case 'archived':
      case 'toggle fails':
        return change?.itemId === WELCOME.id;
      case 'restored':
        return change?.itemId === OLD.id;
      default:
        return true;
    }
  },
  loadError: "We couldn't load the saved replies. Please try again.",
  loads: ['GET admin/saved_replies'],
  newLabel: 'New saved reply',
  expectRows: (replies) => {
    if (replies.length === 0) {
      expect(screen.getByRole('grid', { name: 'Saved replies', hidden: true })).toHaveTextContent('No saved replies yet. Write the first one.');
      return;
    }
    const rows = rowsOf('Saved replies');
    expect(rows).toHaveLength(replies.length);
    replies.forEach((expected, index) => {
      const row = rows[index] as HTMLElement;
      expect(within(row).getByRole('rowheader', { hidden: true })).toHaveTextContent(`/${expected.short_code}`);
      const [title, status] = within(row).getAllByRole('gridcell', { hidden: true }).map((cell) => cell.textContent);
      expect(title).toBe(expected.title);
      expect(status).toBe(expected.active ? 'In use' : 'Archived');
      expect(within(row).getByRole('button', { name: `${expected.active ? 'Archive' : 'Restore'} /${expected.short_code}`, hidden: true })).toBeInTheDocument();
    });
  },
  expectForm: ({ context: { form, fieldErrors } }, dialog) => {
    expect(dialog).toHaveAccessibleName(form!.itemId === null ? 'New saved reply' : 'Edit saved reply');
    const fields = { title: textbox(dialog, /^Title/), short_code: textbox(dialog, /^Short code/), body_markdown: textbox(dialog, /^Reply/) };
    for (const [name, input] of Object.entries(fields)) expect(input).toHaveValue(form!.draft[name as keyof typeof fields]);
    expectFieldMessages(fields, fieldErrors);
  },
  saveButton: /^(Create saved reply|Save changes)$/,
  saved: (form) => ({
    ...(form.itemId === null ? { method: 'POST', path: 'admin/saved_replies' } : { method: 'PATCH', path: `admin/saved_replies/${form.itemId}` }),
    body: form.draft,
  }),
  unsaved: 'Your changes to this saved reply have not been saved.',
  changed: (change) => ({ method: 'POST', path: `admin/saved_replies/${change.itemId}/${change.value ? 'restore' : 'archive'}` }),
  confirmation: (reply) => ({ title: `${reply.active ? 'Archive' : 'Restore'} /${reply.short_code}?`, confirmLabel: reply.active ? 'Archive' : 'Restore' }),
  executors: (user, dialog) => {
    const fieldNames: Record<string, RegExp> = { title: /^Title/, short_code: /^Short code/, body_markdown: /^Reply/ };
    return {
      EDIT: () => user().click(screen.getByRole('button', { name: 'Edit /welcome' })),
      CHANGE: async ({ event }) => {
        for (const [field, value] of Object.entries(event.changes as Record<string, string>)) {
          // user-event reads braces as key names: typed doubled, they are braces.
          await typeInto(user(), textbox(dialog(), fieldNames[field]!), value.replace(/[{[]/g, (brace) => brace + brace));
        }
      },
      SET: ({ event }) => user().click(screen.getByRole('button', { name: event.itemId === WELCOME.id ? 'Archive /welcome' : 'Restore /hours' })),
    };
  },
  scenarios: {
    'an empty list': /^start → no replies$/,
    'failure and retry': /list fails → retry$/,
    'an empty form is checked before it is sent': /new reply → save/,
    'an unknown placeholder is named beside the reply': /fill in the reply → save → fix the placeholder/,
    'a reply is created': /fix the placeholder → save → created$/,
    'a short code clash keeps what was typed': /save → code taken$/,
    'an edit is saved': /edit \/welcome → retitle \/welcome → save → updated$/,
    'a failed save keeps the form': /save → save fails$/,
    'leaving a changed form asks, and discards only when told': /retitle \/welcome → cancel → discard$/,
    'archiving after a confirmation': /archive \/welcome → confirm → archived$/,
    'a refused archiving is shown in the confirmation': /archive \/welcome → confirm → toggle fails$/,
    restoring: /restore \/hours → confirm → restored$/,
    'declining the confirmation': /archive \/welcome → cancel$/,
  },
});

// ---- Caps of open requests ----

const staffCap = (fields: Pick<StaffCap, 'id' | 'full_name' | 'email'> & Partial<StaffCap>): StaffCap => ({
  role: 'concierge',
  available: false,
  open_requests: 0,
  open_request_cap: 5,
  cap_override: null,
  ...fields,
});
const CASEY = staffCap({ id: 11, full_name: 'Casey Concierge', email: 'concierge@demo.test', available: true, open_requests: 2 });
const PAT = staffCap({ id: 12, full_name: 'Pat Helper', email: 'pat@demo.test', cap_override: 3, open_request_cap: 3 });
const CAP_ERROR = 'Please enter a whole number from 0 to 500.';

describeCollection<StaffCap, CapDraft>({
  machine: adminStaffCapsMachine,
  heading: 'Assignment',
  view: (actor) => <StaffCapsView actor={actor as unknown as AdminStaffCapsActor} />,
  routes: [
    { method: 'GET', path: /^admin\/assignment\/staff$/, id: 'list', answer: (staff: StaffCap[]) => ({ staff }) },
    { method: 'PATCH', path: /^admin\/assignment\/staff\/\d+$/, id: 'save', answer: (saved: StaffCap) => ({ staff_member: saved }) },
  ],
  events: [
    doneEvent('list', [CASEY, PAT], 'list'),
    doneEvent('list', [], 'no staff'),
    errorEvent('list', networkDown, 'list fails'),
    { label: 'retry', event: { type: 'RETRY' } },
    { label: 'edit Casey', event: { type: 'EDIT', itemId: CASEY.id } },
    { label: 'edit Pat', event: { type: 'EDIT', itemId: PAT.id } },
    { label: 'type -1', event: { type: 'CHANGE', changes: { cap: '-1' } } },
    { label: 'type 8', event: { type: 'CHANGE', changes: { cap: '8' } } },
    { label: 'clear the cap', event: { type: 'CHANGE', changes: { cap: '' } } },
    { label: 'save', event: { type: 'SAVE' } },
    doneEvent('save', { ...CASEY, cap_override: 8, open_request_cap: 8 }, 'Casey updated'),
    doneEvent('save', { ...PAT, cap_override: null, open_request_cap: 5 }, 'Pat back to the default'),
    errorEvent('save', networkDown, 'save fails'),
    { label: 'cancel', event: { type: 'CANCEL' } },
    { label: 'keep editing', event: { type: 'KEEP_EDITING' } },
    { label: 'discard', event: { type: 'DISCARD' } },
  ],
  offer: ({ context }, { label }) => {
    const { form } = context;
    const cap = form?.draft.cap;
    const isCasey = form?.itemId === CASEY.id;
    const isPat = form?.itemId === PAT.id;
    switch (label) {
      case 'edit Casey':
      case 'edit Pat':
        return untouched(context);
      case 'type -1':
        return isCasey && cap === '';
      case 'type 8':
        return isCasey && cap === '-1' && !clean(context);
      case 'clear the cap':
        return isPat && cap === '3';
      case 'save':
        return (isCasey && (cap === '-1' || cap === '8') && clean(context)) || (isPat && cap === '');
      case 'Casey updated':
        return isCasey;
      case 'Pat back to the default':
      case 'save fails':
        return isPat;
      case 'cancel':
        return (isCasey && cap === '' ) || (isPat && cap === '' && clean(context));
      default:
        return true;
    }
  },
  loadError: "We couldn't load the team's caps. Please try again.",
  loads: ['GET admin/assignment/staff'],
  expectRows: (staff) => {
    if (staff.length === 0) {
      expect(screen.getByRole('grid', { name: 'Caps of open requests', hidden: true })).toHaveTextContent('No active concierges or admins.');
      return;
    }
    const rows = rowsOf('Caps of open requests');
    expect(rows).toHaveLength(staff.length);
    staff.forEach((expected, index) => {
      const row = rows[index] as HTMLElement;
      expect(within(row).getByRole('rowheader', { hidden: true })).toHaveTextContent(`${expected.full_name}${expected.email}`);
      const [availability, open, cap] = within(row).getAllByRole('gridcell', { hidden: true }).map((cell) => cell.textContent);
      expect(availability).toBe(expected.available ? 'Available' : 'Away');
      expect(open).toBe(String(expected.open_requests));
      expect(cap).toBe(expected.cap_override === null ? `${expected.open_request_cap} (default)` : String(expected.open_request_cap));
    });
  },
  expectForm: ({ context: { form, fieldErrors } }, dialog) => {
    expect(dialog).toHaveAccessibleName('Edit cap');
    const fields = { cap: textbox(dialog, /^Cap of open requests/) };
    expect(fields.cap).toHaveValue(form!.draft.cap);
    expectFieldMessages(fields, fieldErrors);
    if (fieldErrors.cap) expect(fieldErrors.cap).toBe(CAP_ERROR);
  },
  saveButton: /^Save changes$/,
  saved: (form) => ({ method: 'PATCH', path: `admin/assignment/staff/${form.itemId}`, body: { cap_override: capOf(form.draft.cap) } }),
  unsaved: 'Your changes to this cap have not been saved.',
  executors: (user, dialog) => ({
    EDIT: ({ event }) => user().click(screen.getByRole('button', { name: `Edit the cap of ${event.itemId === CASEY.id ? CASEY.full_name : PAT.full_name}` })),
    CHANGE: ({ event }) => typeInto(user(), textbox(dialog(), /^Cap of open requests/), (event.changes as CapDraft).cap),
  }),
  scenarios: {
    'an empty list': /^start → no staff$/,
    'failure and retry': /list fails → retry$/,
    'a negative cap is named beside the field': /type -1 → save → type 8/,
    'a cap is set': /type 8 → save → Casey updated$/,
    'a cap is cleared back to the default': /clear the cap → save → Pat back to the default$/,
    'a failed save keeps the form': /save → save fails$/,
    'leaving a changed form asks': /clear the cap → cancel → (discard|keep editing)$/,
  },
});

// ---- The team's default cap ----

const SETTINGS: AssignmentSettings = { id: 1, default_open_request_cap: 5 };

describeCollection<AssignmentSettings, CapDraft>({
  machine: adminTeamDefaultMachine,
  heading: 'Team default',
  view: (actor) => <TeamDefault actor={actor as unknown as AdminTeamDefaultActor} />,
  routes: [
    { method: 'GET', path: /^admin\/assignment$/, id: 'list', answer: ([settings]: AssignmentSettings[]) => ({ settings }) },
    { method: 'PUT', path: /^admin\/assignment$/, id: 'save', answer: (settings: AssignmentSettings) => ({ settings }) },
  ],
  events: [
    doneEvent('list', [SETTINGS], 'list'),
    errorEvent('list', networkDown, 'list fails'),
    { label: 'retry', event: { type: 'RETRY' } },
    { label: 'edit the default', event: { type: 'EDIT', itemId: SETTINGS.id } },
    { label: 'clear it', event: { type: 'CHANGE', changes: { cap: '' } } },
    { label: 'type 7', event: { type: 'CHANGE', changes: { cap: '7' } } },
    { label: 'save', event: { type: 'SAVE' } },
    doneEvent('save', { ...SETTINGS, default_open_request_cap: 7 }, 'updated'),
    errorEvent('save', networkDown, 'save fails'),
    { label: 'cancel', event: { type: 'CANCEL' } },
    { label: 'keep editing', event: { type: 'KEEP_EDITING' } },
    { label: 'discard', event: { type: 'DISCARD' } },
  ],
  offer: ({ context }, { label }) => {
    const cap = context.form?.draft.cap;
    switch (label) {
      case 'edit the default':
        return untouched(context);
      case 'clear it':
        return cap === '5';
      case 'type 7':
        return cap === '' && !clean(context);
      case 'save':
        return (cap === '' && clean(context)) || (cap === '7' && clean(context));
      case 'updated':
        return cap === '7';
      case 'cancel':
        return cap === '5' || (cap === '7' && clean(context));
      default:
        return true;
    }
  },
  loadError: "We couldn't load the team's default cap. Please try again.",
  loads: ['GET admin/assignment'],
  expectRows: ([settings]) => {
    expect(screen.getByRole('region', { name: 'Team default', hidden: true })).toHaveTextContent(`${settings!.default_open_request_cap} open requests`);
  },
  expectForm: ({ context: { form, fieldErrors } }, dialog) => {
    expect(dialog).toHaveAccessibleName('Edit default cap');
    const fields = { cap: textbox(dialog, /^Default cap of open requests/) };
    expect(fields.cap).toHaveValue(form!.draft.cap);
    expectFieldMessages(fields, fieldErrors);
  },
  saveButton: /^Save changes$/,
  saved: (form) => ({ method: 'PUT', path: 'admin/assignment', body: { default_open_request_cap: Number(form.draft.cap) } }),
  unsaved: 'Your changes to this default cap have not been saved.',
  executors: (user, dialog) => ({
    EDIT: () => user().click(screen.getByRole('button', { name: 'Edit the default cap' })),
    CHANGE: ({ event }) => typeInto(user(), textbox(dialog(), /^Default cap of open requests/), (event.changes as CapDraft).cap),
  }),
  scenarios: {
    'failure and retry': /list fails → retry$/,
    'an empty default is named beside the field': /clear it → save → type 7/,
    'the default is changed': /type 7 → save → updated$/,
    'a failed save keeps the form': /save → save fails$/,
  },
});
