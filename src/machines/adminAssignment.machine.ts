import type { SnapshotFrom } from 'xstate';
import {
  type AssignmentSettings,
  type AssignmentSettingsRequest,
  type StaffCap,
  type StaffCapRequest,
  assignmentSettingsRequest,
  staffCapRequest,
} from '../contract/assignment.ts';
import { fetchAssignmentSettings, listStaffCaps, setDefaultCap, setStaffCap } from '../services/assignment.ts';
import { adminCollectionMachine } from './adminCollection.ts';

export const STAFF_CAPS_LOAD_ERROR = "We couldn't load the team's caps. Please try again.";
export const TEAM_DEFAULT_LOAD_ERROR = "We couldn't load the team's default cap. Please try again.";

/** A cap as typed: a whole number, or nothing for the team's default. */
export interface CapDraft {
  cap: string;
}

/** The typed cap as a number for the contract to check; blank is null, anything unreadable stays for it to refuse. */
export function capOf(typed: string): number | null {
  const trimmed = typed.trim();
  return trimmed === '' ? null : Number(trimmed);
}

/** The form's one field is `cap`; the contract names it by its wire name. */
const onCapField = (errors: Record<string, string>): Record<string, string> => {
  const [message] = Object.values(errors);
  return message === undefined ? {} : { cap: message };
};

/**
 * The team's default cap of open requests (issue 28): one record, the team's settings, edited in a form; raising it
 * may hand waiting requests out at once. Audit-logged by the server.
 */
export const adminTeamDefaultMachine = adminCollectionMachine<'adminTeamDefault', AssignmentSettings, CapDraft, AssignmentSettingsRequest>({
  id: 'adminTeamDefault',
  loadError: TEAM_DEFAULT_LOAD_ERROR,
  list: async () => [await fetchAssignmentSettings()],
  nameOf: () => 'The default cap',
  form: {
    draftOf: (settings) => ({ cap: String(settings.default_open_request_cap) }),
    schema: () => assignmentSettingsRequest,
    requestOf: (draft) => ({ default_open_request_cap: capOf(draft.cap) as number }),
    update: (_id, request) => setDefaultCap(request.default_open_request_cap),
    messagesOf: onCapField,
  },
});

/**
 * Each staff member's cap (issue 28): their availability and open requests beside the cap automatic assignment keeps
 * to, their own or the team's default; an admin sets or clears their own. Audit-logged by the server.
 */
export const adminStaffCapsMachine = adminCollectionMachine<'adminStaffCaps', StaffCap, CapDraft, StaffCapRequest>({
  id: 'adminStaffCaps',
  loadError: STAFF_CAPS_LOAD_ERROR,
  list: listStaffCaps,
  order: { byText: (member) => member.full_name },
  nameOf: (member) => member.full_name,
  form: {
    draftOf: (member) => ({ cap: member.cap_override === null ? '' : String(member.cap_override) }),
    schema: () => staffCapRequest,
    requestOf: (draft) => ({ cap_override: capOf(draft.cap) }),
    update: (userId, request) => setStaffCap(userId, request.cap_override),
    messagesOf: onCapField,
    savedNotice: (member) => `${member.full_name} now takes up to ${member.open_request_cap} open requests${member.cap_override === null ? " (the team's default)" : ''}.`,
  },
});

export type AdminStaffCapsSnapshot = SnapshotFrom<typeof adminStaffCapsMachine>;
