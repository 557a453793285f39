import {
  type AssignmentSettings,
  type AvailabilityResponse,
  type FilledSavedReply,
  type SavedReply,
  type SavedReplyRequest,
  type StaffCap,
  assignmentSettingsResponse,
  availabilityResponse,
  filledSavedReply,
  savedRepliesResponse,
  savedReplyResponse,
  staffCapResponse,
  staffCapsResponse,
} from '../contract/assignment.ts';
import { api } from './http.ts';

/**
 * Assignment and saved replies (src/contract/assignment.ts describes each route): the console's availability and
 * composer calls, and the admin's caps and templates. Failures are ky's, as http.ts describes.
 */

export async function fetchAvailability(): Promise<AvailabilityResponse> {
  const client = await api();
  return client.get('console/availability').json(availabilityResponse);
}

export async function setAvailability(available: boolean): Promise<AvailabilityResponse> {
  const client = await api();
  return client.put('console/availability', { json: { available } }).json(availabilityResponse);
}

/** The active saved replies, by short code, as the composer offers them. */
export async function listUsableSavedReplies(): Promise<SavedReply[]> {
  const client = await api();
  return (await client.get('console/saved_replies').json(savedRepliesResponse)).saved_replies;
}

/** The reply's Markdown with its placeholders filled for the request. */
export async function fillSavedReply(replyId: number, requestId: number): Promise<FilledSavedReply> {
  const client = await api();
  return client.post(`console/saved_replies/${replyId}/fill`, { json: { request_id: requestId } }).json(filledSavedReply);
}

// ---- Admin ----

export async function listSavedReplies(): Promise<SavedReply[]> {
  const client = await api();
  return (await client.get('admin/saved_replies').json(savedRepliesResponse)).saved_replies;
}

export async function createSavedReply(reply: SavedReplyRequest): Promise<SavedReply> {
  const client = await api();
  return (await client.post('admin/saved_replies', { json: reply }).json(savedReplyResponse)).saved_reply;
}

export async function updateSavedReply(replyId: number, reply: SavedReplyRequest): Promise<SavedReply> {
  const client = await api();
  return (await client.patch(`admin/saved_replies/${replyId}`, { json: reply }).json(savedReplyResponse)).saved_reply;
}

export async function setSavedReplyActive(replyId: number, active: boolean): Promise<SavedReply> {
  const client = await api();
  return (await client.post(`admin/saved_replies/${replyId}/${active ? 'restore' : 'archive'}`).json(savedReplyResponse)).saved_reply;
}

export async function fetchAssignmentSettings(): Promise<AssignmentSettings> {
  const client = await api();
  return (await client.get('admin/assignment').json(assignmentSettingsResponse)).settings;
}

export async function setDefaultCap(cap: number): Promise<AssignmentSettings> {
  const client = await api();
  return (await client.put('admin/assignment', { json: { default_open_request_cap: cap } }).json(assignmentSettingsResponse)).settings;
}

export async function listStaffCaps(): Promise<StaffCap[]> {
  const client = await api();
  return (await client.get('admin/assignment/staff').json(staffCapsResponse)).staff;
}

export async function setStaffCap(userId: number, capOverride: number | null): Promise<StaffCap> {
  const client = await api();
  return (await client.patch(`admin/assignment/staff/${userId}`, { json: { cap_override: capOverride } }).json(staffCapResponse)).staff_member;
}
