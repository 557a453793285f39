import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  ABOUT_YOU_ANSWER_IDS,
  ADDRESS_PART_IDS,
  ANSWER_ERRORS,
  ONBOARDING_ANSWER_IDS as IDS,
  type OnboardingAnswer,
  REQUIRED_ADDRESS_PART_IDS,
  phoneDigits,
} from '../../../src/contract/surveys.ts';
import type { Database, Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { onboardingAnswers } from '../../db/surveys.schema.ts';
import { UserFacingError, invalidField } from '../shared/userFacingError.ts';

type AddressPartId = (typeof ADDRESS_PART_IDS)[number];

const ADDRESS_PART_NAMES: Record<AddressPartId, string> = {
  [IDS.addressLine1]: 'address line 1',
  [IDS.addressLine2]: 'address line 2',
  [IDS.city]: 'city',
  [IDS.state]: 'state',
  [IDS.postalCode]: 'postal code',
  [IDS.country]: 'country',
};

/** "a", "a and b", "a, b and c". */
function listInWords(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

const emailAddress = z.email();

/** The text to keep (about-you choices as 'true' or 'false'), or null to remove what was saved under that id. */
type Change = { answerId: number; value: string | null };

/** The address group (611) replaces the whole saved address; SPEC §5 Contact info decides what it must hold. */
function addressChanges(parts: readonly { answer_id: AddressPartId; value: string }[]): Change[] {
  const given = new Map(parts.map((part) => [part.answer_id, part.value.trim()]));
  const anyFilled = [...given.values()].some((value) => value !== '');
  if (anyFilled) {
    const missing = REQUIRED_ADDRESS_PART_IDS.filter((id) => !given.get(id));
    if (missing.length > 0) {
      const names = missing.map((id) => ADDRESS_PART_NAMES[id]);
      throw new UserFacingError(
        422,
        `Please enter the ${listInWords(names)} of your address.`,
        Object.fromEntries(missing.map((id) => [`answers.${IDS.address}.${id}`, `Please enter the ${ADDRESS_PART_NAMES[id]}`])),
      );
    }
  }
  return ADDRESS_PART_IDS.map((answerId) => ({ answerId, value: given.get(answerId) || null }));
}

/** Checks every answer and turns it into the rows to keep or remove; throws a 422 on the first bad one. */
function changesFor(answers: readonly OnboardingAnswer[]): Change[] {
  return answers.flatMap((answer): Change[] => {
    switch (answer.answer_id) {
      case IDS.phone: {
        const typed = answer.value.trim();
        const digits = typed === '' ? null : phoneDigits(typed);
        if (typed !== '' && !digits) {
          throw invalidField(`answers.${IDS.phone}`, ANSWER_ERRORS.phone);
        }
        return [{ answerId: IDS.phone, value: digits }];
      }
      case IDS.preferredEmail: {
        const typed = answer.value.trim().toLowerCase();
        if (typed !== '' && !emailAddress.safeParse(typed).success) {
          throw invalidField(`answers.${IDS.preferredEmail}`, ANSWER_ERRORS.email);
        }
        return [{ answerId: IDS.preferredEmail, value: typed || null }];
      }
      case IDS.address:
        return addressChanges(answer.value);
      default:
        return [{ answerId: answer.answer_id, value: String(answer.value) }];
    }
  });
}

/**
 * Saves what the user said in onboarding (upsert per answer id; an empty phone, e-mail or address removes it), and
 * with `completed` ends onboarding. All or nothing: one bad answer saves none.
 */
export async function saveOnboardingAnswers(
  db: Database,
  userId: number,
  { answers, completed }: { answers: readonly OnboardingAnswer[]; completed?: boolean },
  now = new Date(),
): Promise<void> {
  // A later answer to the same id wins, as if the calls had been made one after the other.
  const changes = [...new Map(changesFor(answers).map((change) => [change.answerId, change])).values()];
  const kept = changes.flatMap(({ answerId, value }) => (value === null ? [] : [{ userId, answerId, value, updatedAt: now }]));
  const removed = changes.filter((change) => change.value === null).map((change) => change.answerId);

  await db.transaction(async (tx) => {
    if (kept.length > 0) {
      await tx
        .insert(onboardingAnswers)
        .values(kept)
        .onConflictDoUpdate({
          target: [onboardingAnswers.userId, onboardingAnswers.answerId],
          set: { value: sql`excluded.value`, updatedAt: now },
        });
    }
    if (removed.length > 0) {
      await tx
        .delete(onboardingAnswers)
        .where(and(eq(onboardingAnswers.userId, userId), inArray(onboardingAnswers.answerId, removed)));
    }
    if (completed) {
      await tx.update(users).set({ onboardedAt: now }).where(and(eq(users.id, userId), isNull(users.onboardedAt)));
    }
  });
}

async function savedAnswers(db: Executor, userId: number): Promise<Map<number, string>> {
  const rows = await db
    .select({ answerId: onboardingAnswers.answerId, value: onboardingAnswers.value })
    .from(onboardingAnswers)
    .where(eq(onboardingAnswers.userId, userId));
  return new Map(rows.map((row) => [row.answerId, row.value]));
}

/** The saved onboarding answers in the wire shape of POST, for the onboarding screens to show again. */
export async function readOnboardingAnswers(db: Executor, userId: number): Promise<OnboardingAnswer[]> {
  const saved = await savedAnswers(db, userId);
  const answers: OnboardingAnswer[] = [];
  for (const answerId of ABOUT_YOU_ANSWER_IDS) {
    const value = saved.get(answerId);
    if (value !== undefined) answers.push({ answer_id: answerId, value: value === 'true' });
  }
  for (const answerId of [IDS.phone, IDS.preferredEmail] as const) {
    const value = saved.get(answerId);
    if (value !== undefined) answers.push({ answer_id: answerId, value });
  }
  const addressParts = ADDRESS_PART_IDS.flatMap((answerId) => {
    const value = saved.get(answerId);
    return value !== undefined ? [{ answer_id: answerId, value }] : [];
  });
  if (addressParts.length > 0) answers.push({ answer_id: IDS.address, value: addressParts });
  return answers;
}

/** The about-you choices (SPEC §3: own a home, own/lease a car, parent, pet, partner) the user said yes to. */
export async function aboutYouChoices(db: Executor, userId: number): Promise<Set<number>> {
  const rows = await db
    .select({ answerId: onboardingAnswers.answerId, value: onboardingAnswers.value })
    .from(onboardingAnswers)
    .where(and(eq(onboardingAnswers.userId, userId), inArray(onboardingAnswers.answerId, [...ABOUT_YOU_ANSWER_IDS])));
  return new Set(rows.filter((row) => row.value === 'true').map((row) => row.answerId));
}

/** What surveys can pre-fill from: the account, the MFA phone and the onboarding contact answers. */
export interface ContactProfile {
  full_name: string;
  /** 10 digits. */
  phone: string | null;
  email: string;
  /** "line 1\nline 2\ncity, state postal code\ncountry", line 2 only when given. */
  address: string | null;
}

function formatAddress(saved: Map<number, string>): string | null {
  const part = (id: AddressPartId) => saved.get(id) ?? '';
  if (!part(IDS.addressLine1)) return null;
  const cityLine = `${part(IDS.city)}, ${part(IDS.state)} ${part(IDS.postalCode)}`.trim();
  return [part(IDS.addressLine1), part(IDS.addressLine2), cityLine, part(IDS.country)].filter(Boolean).join('\n');
}

export async function readContactProfile(db: Executor, userId: number): Promise<ContactProfile> {
  const [[user], saved] = await Promise.all([
    db
      .select({ firstName: users.firstName, lastName: users.lastName, email: users.email, mfaPhone: users.mfaPhone })
      .from(users)
      .where(eq(users.id, userId)),
    savedAnswers(db, userId),
  ]);
  if (!user) throw new Error(`readContactProfile: no user ${userId}`);
  return {
    full_name: `${user.firstName} ${user.lastName}`.trim(),
    phone: saved.get(IDS.phone) ?? user.mfaPhone,
    email: saved.get(IDS.preferredEmail) ?? user.email,
    address: formatAddress(saved),
  };
}
