import { type User, currentUserResponse } from '../contract/account.ts';
import { messageBody } from '../contract/common.ts';
import type { NameChangeRequest, PasswordChangeRequest } from '../contract/profile.ts';
import { api, requireSuccess } from './http.ts';

/**
 * Account Settings' own calls (issue 32 point 3; src/contract/profile.ts). They fail as every service does
 * (http.ts): a refused input is ky's HTTPError whose fields (fieldErrorsOf) name the inputs at fault. The phone,
 * address and interests go through the onboarding answers (surveys.ts).
 */

/** PATCH /api/v1/users/current: the signed-in user's new name; answers the user as /users/current does. */
export async function renameCurrentUser(user: NameChangeRequest['user']): Promise<User> {
  const client = await api();
  return (await client.patch('users/current', { json: { user } }).json(currentUserResponse)).user;
}

/** PUT /api/v1/users/current/password: answers the server's message (every other device is signed out). */
export async function changePassword(change: PasswordChangeRequest): Promise<string> {
  const client = await api();
  return requireSuccess(await client.put('users/current/password', { json: change }).json(messageBody)).message;
}
