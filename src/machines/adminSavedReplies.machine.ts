import type { SnapshotFrom } from 'xstate';
import { type SavedReply, type SavedReplyRequest, savedReplyRequest } from '../contract/assignment.ts';
import { createSavedReply, listSavedReplies, setSavedReplyActive, updateSavedReply } from '../services/assignment.ts';
import { adminCollectionMachine } from './adminCollection.ts';

export const SAVED_REPLIES_LOAD_ERROR = "We couldn't load the saved replies. Please try again.";

export const EMPTY_SAVED_REPLY: SavedReplyRequest = { title: '', short_code: '', body_markdown: '' };

export type SavedReplySetting = { field: 'active'; value: boolean };

/**
 * The admin's saved replies (issue 28): the team's reply templates by short code; a form to write or edit one (its
 * placeholders checked by the contract); archiving, after a confirmation, takes one out of the composer, and
 * restoring puts it back. Concierges use them; admins manage them.
 */
export const adminSavedRepliesMachine = adminCollectionMachine<'adminSavedReplies', SavedReply, SavedReplyRequest, SavedReplyRequest, SavedReply, null, SavedReplySetting>({
  id: 'adminSavedReplies',
  loadError: SAVED_REPLIES_LOAD_ERROR,
  list: listSavedReplies,
  order: { byText: (reply) => reply.short_code },
  nameOf: (reply) => `/${reply.short_code}`,
  form: {
    empty: EMPTY_SAVED_REPLY,
    draftOf: (reply) => ({ title: reply.title, short_code: reply.short_code, body_markdown: reply.body_markdown }),
    schema: () => savedReplyRequest,
    requestOf: (draft) => draft,
    create: createSavedReply,
    update: updateSavedReply,
  },
  settings: {
    active: {
      call: setSavedReplyActive,
      confirms: true,
      notice: (reply) => `/${reply.short_code} ${reply.active ? 'restored: concierges can use it again' : 'archived: concierges no longer see it'}.`,
    },
  },
});

export type AdminSavedRepliesSnapshot = SnapshotFrom<typeof adminSavedRepliesMachine>;
