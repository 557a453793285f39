import type { User } from '../../src/contract/account.ts';

type Identity = Pick<User, 'external_id' | 'full_name' | 'first_name' | 'initials' | 'email'>;

/**
 * A signed-in employee as the session API describes one: no requests, no company, onboarded, no MFA, unless
 * `account` says otherwise.
 */
export function employeeUser(identity: Identity, account: Partial<Omit<User, keyof Identity>> = {}): User {
  return {
    ...identity,
    request_count: 0,
    companies: [],
    role: 'employee',
    internal_user: false,
    onboarding_required: false,
    mfa_enrolled: false,
    mfa_phone_last_digits: null,
    email_confirmation_pending: false,
    ...account,
  };
}
