/**
 * The privacy rules of the employer's report (issue 29 part 3), pure: no database, no clock. Every figure that counts
 * people, or that is an aggregate over people, is published only when it describes at least `threshold` distinct
 * employees; otherwise it is shown as "fewer than <threshold>".
 *
 * Releases are built from monthly atoms (report.ts): each calendar month's cells are decided here once, the same
 * way in every report, and a quarter's or a year's counts are sums of its months' published cells only. So two
 * reports for overlapping (nested, calendar-aligned) periods tell nothing that the month reports do not, and within a
 * month no published cell, total or difference of them describes fewer than `threshold` people (complementary
 * suppression below). tests/server/employerSuppression.test.ts proves both with fast-check.
 */

export const DEFAULT_THRESHOLD = 10;
export const MIN_THRESHOLD = 5;

/** The threshold a company's report uses: the admin's setting, never below the floor. */
export function effectiveThreshold(setting: number | null | undefined): number {
  return Math.max(MIN_THRESHOLD, setting ?? DEFAULT_THRESHOLD);
}

/** A count published as it is, within a band, or withheld (fewer than the threshold). */
export type PublishedFigure =
  | { status: 'shown'; value: number }
  | { status: 'range'; from: number; to: number }
  | { status: 'suppressed'; fewer_than: number };

/** A group of people and what they did: `count` events (requests, views...) by the distinct `people` (ids). */
export interface Group {
  key: string;
  count: number;
  people: readonly number[];
}

function distinct(...lists: ReadonlyArray<readonly number[]>): number {
  return new Set(lists.flat()).size;
}

/** A count of distinct people, shown when at least `threshold`. */
export function publishPeople(people: number, threshold: number): PublishedFigure {
  return people >= threshold ? { status: 'shown', value: people } : { status: 'suppressed', fewer_than: threshold };
}

/** A count of events by `people` distinct employees: shown only when they are at least `threshold`. */
export function publishActivity(group: Pick<Group, 'count' | 'people'>, threshold: number): PublishedFigure {
  return distinct(group.people) >= threshold
    ? { status: 'shown', value: group.count }
    : { status: 'suppressed', fewer_than: threshold };
}

/**
 * A head count taken at a moment (signed-up employees at a period's end), published as the band of `threshold`
 * values it falls in: two moments' bands never pin down how many joined or left between them, which two exact counts
 * would (a difference of 3 names three people).
 */
export function publishBanded(people: number, threshold: number): PublishedFigure {
  if (people < threshold) return { status: 'suppressed', fewer_than: threshold };
  const from = Math.floor(people / threshold) * threshold;
  return { status: 'range', from, to: from + threshold - 1 };
}

/** A breakdown as published: the cells shown, and "Other" (the folded cells together) or null when nothing folded. */
export interface FoldedBreakdown {
  shown: Array<{ key: string; count: number }>;
  other: { count: number; keys: string[] } | null;
  /** Every cell folded, and even together they describe too few people: nothing of the breakdown is published. */
  withheld: boolean;
}

/**
 * Folds the groups that describe fewer than `threshold` people into "Other". If Other itself describes too few
 * (it would reveal them as total minus the shown cells), the smallest shown groups join it until it is large enough
 * (complementary suppression); if even all of them together are too few, the whole breakdown is withheld. Shown
 * cells keep their input order.
 */
export function foldBreakdown(groups: readonly Group[], threshold: number): FoldedBreakdown {
  const present = groups.filter((group) => group.count > 0);
  const folded = new Set(present.filter((group) => distinct(group.people) < threshold).map((group) => group.key));
  const foldedPeople = () => distinct(...present.filter((group) => folded.has(group.key)).map((group) => group.people));
  // Smallest first (fewest people, then fewest events, then key), so what joins Other is what says least.
  const candidates = present
    .filter((group) => !folded.has(group.key))
    .sort((a, b) => distinct(a.people) - distinct(b.people) || a.count - b.count || a.key.localeCompare(b.key));
  while (folded.size > 0 && foldedPeople() < threshold && candidates.length > 0) {
    folded.add(candidates.shift()!.key);
  }
  if (folded.size > 0 && foldedPeople() < threshold) return { shown: [], other: null, withheld: true };
  const shown = present.filter((group) => !folded.has(group.key)).map(({ key, count }) => ({ key, count }));
  const otherGroups = present.filter((group) => folded.has(group.key));
  return {
    shown,
    other: otherGroups.length > 0 ? { count: otherGroups.reduce((sum, group) => sum + group.count, 0), keys: otherGroups.map((group) => group.key) } : null,
    withheld: false,
  };
}

/**
 * A split of events in two (completed or not; rated 4-5 or lower), published as both counts only when each side that
 * has events describes at least `threshold` people: the share and the total would otherwise give away the small
 * side. An empty side names nobody.
 */
export function publishSplit(
  yes: Pick<Group, 'count' | 'people'>,
  no: Pick<Group, 'count' | 'people'>,
  threshold: number,
): { yes: number; total: number } | null {
  const sideIsSafe = (side: Pick<Group, 'count' | 'people'>) => side.count === 0 || distinct(side.people) >= threshold;
  if (yes.count + no.count === 0 || !sideIsSafe(yes) || !sideIsSafe(no)) return null;
  if (distinct(yes.people, no.people) < threshold) return null;
  return { yes: yes.count, total: yes.count + no.count };
}

/** The sum of the shown values of figures (suppressed ones are left out, never estimated). */
export function sumShown(figures: readonly PublishedFigure[]): number {
  return figures.reduce((sum, figure) => sum + (figure.status === 'shown' ? figure.value : 0), 0);
}
