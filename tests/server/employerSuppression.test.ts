import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type MonthFacts, type MonthRelease, combineReleases, releaseMonth } from '../../server/domain/employer/report.ts';
import {
  MIN_THRESHOLD,
  effectiveThreshold,
  foldBreakdown,
  publishBanded,
  publishPeople,
} from '../../server/domain/employer/suppression.ts';

/**
 * Properties of the employer report's privacy rules (issue 29 part 3). An attacker holds every published cell of the
 * month reports of a quarter and of the quarter's own report (overlapping periods), knows how each cell is made (and
 * even our hours-saved estimates), and solves the linear system they form. Whatever count of a group of true cells
 * the system pins down, that group is the work of at least `threshold` distinct employees, or is empty.
 */

const CATEGORIES = ['Home', 'Travel', 'Health'];

interface RequestFact {
  month: number;
  category: string;
  userId: number;
  completed: boolean;
}
interface Dataset {
  threshold: number;
  months: number;
  categories: string[];
  estimates: Record<string, number>;
  requests: RequestFact[];
  ratings: Array<{ month: number; userId: number; score: number }>;
  views: Array<{ month: number; userId: number }>;
}

/** Few people (so groups straddle the threshold), few cells (so every subset of cells can be tried). */
const dataset: fc.Arbitrary<Dataset> = fc
  .record({
    threshold: fc.integer({ min: MIN_THRESHOLD, max: 8 }),
    months: fc.integer({ min: 2, max: 3 }),
    categoryCount: fc.integer({ min: 1, max: 3 }),
    people: fc.integer({ min: 3, max: 40 }),
  })
  .chain(({ threshold, months, categoryCount, people }) => {
    // At most 12 unknown cells in the request system: months x categories x (completed or not).
    const categories = CATEGORIES.slice(0, months * categoryCount * 2 > 12 ? 2 : categoryCount);
    const person = fc.integer({ min: 1, max: people });
    const month = fc.integer({ min: 0, max: months - 1 });
    // Activity concentrated on a few people now and then, so that small groups are common.
    // A category that one or two people use now and then sits beside categories that many use.
    const category = fc.constantFrom(...categories);
    const requestFact = fc.oneof(
      fc.record({ month, category, userId: person, completed: fc.boolean() }),
      fc.record({ month, category: fc.constant(categories[categories.length - 1]), userId: fc.integer({ min: 1, max: 2 }), completed: fc.boolean() }),
    );
    return fc.record({
      threshold: fc.constant(threshold),
      months: fc.constant(months),
      categories: fc.constant(categories),
      estimates: fc.record(Object.fromEntries(categories.map((category) => [category, fc.integer({ min: 0, max: 600 })]))),
      requests: fc.array(requestFact, { minLength: 0, maxLength: 150, size: 'max' }),
      ratings: fc.array(fc.record({ month, userId: person, score: fc.integer({ min: 1, max: 5 }) }), { maxLength: 80 }),
      views: fc.array(fc.record({ month, userId: person }), { maxLength: 80 }),
    });
  });

function factsOf(data: Dataset): MonthFacts[] {
  return Array.from({ length: data.months }, (_, month) => ({
    month: `2026-0${month + 1}`,
    requests: data.requests
      .filter((request) => request.month === month)
      .map((request) => ({
        category: request.category,
        userId: request.userId,
        completed: request.completed,
        turnaroundHours: request.completed ? 5 : null,
        minutesSaved: request.completed ? data.estimates[request.category] : 0,
      })),
    ratings: data.ratings.filter((rating) => rating.month === month),
    benefitViews: data.views.filter((view) => view.month === month),
    helpRequests: [],
    activeUserIds: data.requests.filter((request) => request.month === month).map((request) => request.userId),
  }));
}

/** An unknown of the attacker: a true count and the people behind it. */
interface Cell {
  key: string;
  count: number;
  people: Set<number>;
}
type Equation = Map<string, number>;

function cellsOf<T extends { userId: number }>(rows: readonly T[], keyOf: (row: T) => string): Map<string, Cell> {
  const cells = new Map<string, Cell>();
  for (const row of rows) {
    const cell = cells.get(keyOf(row)) ?? { key: keyOf(row), count: 0, people: new Set<number>() };
    cell.count += 1;
    cell.people.add(row.userId);
    cells.set(cell.key, cell);
  }
  return cells;
}

/** Row-reduces the equations over the cells; returns a test of whether a combination is pinned down by them. */
function solver(cells: readonly Cell[], equations: readonly Equation[]) {
  const basis: number[][] = [];
  const pivots: number[] = [];
  const reduce = (vector: number[]) => {
    const row = [...vector];
    basis.forEach((base, index) => {
      const factor = row[pivots[index]];
      if (Math.abs(factor) > 1e-9) for (let column = 0; column < row.length; column += 1) row[column] -= factor * base[column];
    });
    return row;
  };
  for (const equation of equations) {
    const row = reduce(cells.map((cell) => equation.get(cell.key) ?? 0));
    const pivot = row.findIndex((value) => Math.abs(value) > 1e-9);
    if (pivot === -1) continue;
    const scaled = row.map((value) => value / row[pivot]);
    // Keep the basis fully reduced, so that reducing a vector against it is one pass.
    basis.forEach((base, index) => {
      const factor = base[pivot];
      if (Math.abs(factor) > 1e-9) basis[index] = base.map((value, column) => value - factor * scaled[column]);
      void index;
    });
    basis.push(scaled);
    pivots.push(pivot);
  }
  return (vector: number[]) => reduce(vector).every((value) => Math.abs(value) < 1e-9);
}

/** Every group of cells whose total the equations pin down has at least `threshold` people, or no events. */
function expectNothingSmallRevealed(cells: readonly Cell[], equations: readonly Equation[], threshold: number) {
  expect(cells.length).toBeLessThanOrEqual(12);
  const isDetermined = solver(cells, equations);
  for (let subset = 1; subset < 1 << cells.length; subset += 1) {
    const members = cells.filter((_, index) => subset & (1 << index));
    if (!isDetermined(cells.map((_, index) => (subset & (1 << index) ? 1 : 0)))) continue;
    const people = new Set(members.flatMap((cell) => [...cell.people]));
    const events = members.reduce((sum, cell) => sum + cell.count, 0);
    if (events > 0 && people.size < threshold) {
      throw new Error(`${members.map((cell) => cell.key).join(' + ')} = ${events} is revealed and describes ${people.size} people`);
    }
  }
}

const sumOf = (keys: readonly string[]): Equation => new Map(keys.map((key) => [key, 1]));

/** What the month reports and the period's report publish about requests, as equations over (month, category, done). */
function requestEquations(data: Dataset, releases: readonly MonthRelease[], period: ReturnType<typeof combineReleases>, cells: Map<string, Cell>) {
  const keysOf = (month: number, categories: readonly string[], done?: boolean) =>
    categories.flatMap((category) => [true, false].filter((value) => done === undefined || value === done).map((value) => `${month}|${category}|${value}`)).filter((key) => cells.has(key));
  const equations: Equation[] = [];
  const periodCategory = new Map<string, string[]>();
  const periodOther: string[] = [];
  const periodCompleted: string[] = [];
  const periodAll: string[] = [];
  const periodHours = new Map<string, number>();
  releases.forEach((release, month) => {
    const { shown, other, withheld } = release.requestsByCategory;
    if (withheld) return;
    for (const cell of shown) {
      equations.push(sumOf(keysOf(month, [cell.key])));
      periodCategory.set(cell.key, [...(periodCategory.get(cell.key) ?? []), ...keysOf(month, [cell.key])]);
    }
    if (other) {
      equations.push(sumOf(keysOf(month, other.keys)));
      periodOther.push(...keysOf(month, other.keys));
    }
    periodAll.push(...keysOf(month, data.categories));
    if (release.completion) {
      equations.push(sumOf(keysOf(month, data.categories, true)), sumOf(keysOf(month, data.categories)));
      periodCompleted.push(...keysOf(month, data.categories, true));
    }
    if (release.minutesSaved !== null) {
      // The attacker knows our estimates: the minutes are a weighted sum of the completed cells.
      const weighted = new Map(data.categories.flatMap((category) => keysOf(month, [category], true).map((key) => [key, data.estimates[category]] as const)));
      equations.push(weighted);
      for (const [key, weight] of weighted) periodHours.set(key, weight);
    }
  });
  // The period's report: its cells are sums of the months' (checked below), and each is one more equation.
  for (const keys of periodCategory.values()) equations.push(sumOf(keys));
  if (periodOther.length > 0) equations.push(sumOf(periodOther));
  equations.push(sumOf(periodAll), sumOf(periodCompleted), periodHours);
  expect(period.requests_by_category.total).toBe([...sumOf(periodAll).keys()].reduce((sum, key) => sum + cells.get(key)!.count, 0));
  return equations;
}

describe('the employer report’s suppression (fast-check)', () => {
  it('never sets a threshold below the floor', () => {
    fc.assert(
      fc.property(fc.option(fc.integer({ min: -1000, max: 1000 }), { nil: null }), (setting) => {
        expect(effectiveThreshold(setting)).toBeGreaterThanOrEqual(MIN_THRESHOLD);
      }),
    );
    expect(effectiveThreshold(null)).toBe(10);
  });

  it('shows a count of people only from the threshold up, and says "fewer than" below it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), fc.integer({ min: MIN_THRESHOLD, max: 20 }), (people, threshold) => {
        const figure = publishPeople(people, threshold);
        expect(figure).toEqual(people >= threshold ? { status: 'shown', value: people } : { status: 'suppressed', fewer_than: threshold });
      }),
    );
  });

  it('bands head counts so that two of them never pin down how many joined between', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 500 }), fc.integer({ min: 0, max: 500 }), fc.integer({ min: MIN_THRESHOLD, max: 20 }), (a, b, threshold) => {
        const [first, second] = [publishBanded(a, threshold), publishBanded(b, threshold)];
        if (first.status !== 'range' || second.status !== 'range') return;
        expect(a).toBeGreaterThanOrEqual(first.from);
        expect(a).toBeLessThanOrEqual(first.to);
        // Every difference the bands allow spans at least the threshold's width: none is pinned to one value.
        expect(second.to - first.from - (second.from - first.to)).toBeGreaterThanOrEqual(2 * (threshold - 1));
      }),
    );
  });

  it('folds small categories into Other, and more until Other is large enough, or withholds the breakdown', () => {
    fc.assert(
      fc.property(dataset, (data) => {
        for (const month of factsOf(data)) {
          const groups = [...cellsOf(month.requests, (request) => request.category).values()].map((cell) => ({
            key: cell.key,
            count: cell.count,
            people: [...cell.people],
          }));
          const folded = foldBreakdown(groups, data.threshold);
          const peopleOf = (keys: readonly string[]) => new Set(groups.filter((group) => keys.includes(group.key)).flatMap((group) => group.people)).size;
          for (const cell of folded.shown) expect(peopleOf([cell.key])).toBeGreaterThanOrEqual(data.threshold);
          if (folded.other) expect(peopleOf(folded.other.keys)).toBeGreaterThanOrEqual(data.threshold);
          if (folded.withheld) expect(peopleOf(groups.map((group) => group.key))).toBeLessThan(data.threshold);
          else expect(folded.shown.reduce((sum, cell) => sum + cell.count, 0) + (folded.other?.count ?? 0)).toBe(month.requests.length);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reveals no small group through any combination of the month reports and their period’s report', () => {
    fc.assert(
      fc.property(dataset, (data) => {
        const facts = factsOf(data);
        const releases = facts.map((month) => releaseMonth(month, data.threshold));
        const period = combineReleases(releases, facts, data.threshold);

        // Requests: by category, completion and hours saved share their unknowns.
        const requestCells = cellsOf(data.requests, (request) => `${request.month}|${request.category}|${request.completed}`);
        expectNothingSmallRevealed([...requestCells.values()], requestEquations(data, releases, period, requestCells), data.threshold);

        // Ratings: satisfied and not, per month; the period sums the released months.
        const ratingCells = cellsOf(data.ratings, (rating) => `${rating.month}|${rating.score >= 4}`);
        const ratingKeys = (month: number, satisfied?: boolean) =>
          [true, false].filter((value) => satisfied === undefined || value === satisfied).map((value) => `${month}|${value}`).filter((key) => ratingCells.has(key));
        const released = releases.flatMap((release, month) => (release.satisfaction ? [month] : []));
        const ratingEquations = released.flatMap((month) => [sumOf(ratingKeys(month, true)), sumOf(ratingKeys(month))]);
        ratingEquations.push(sumOf(released.flatMap((month) => ratingKeys(month, true))), sumOf(released.flatMap((month) => ratingKeys(month))));
        expectNothingSmallRevealed([...ratingCells.values()], ratingEquations, data.threshold);

        // Benefit views: each month's count, and the period's sum of the shown ones.
        const viewCells = cellsOf(data.views, (view) => `${view.month}`);
        const shownViews = releases.flatMap((release, month) => (release.benefitViews.status === 'shown' && viewCells.has(`${month}`) ? [`${month}`] : []));
        expectNothingSmallRevealed([...viewCells.values()], [...shownViews.map((key) => sumOf([key])), sumOf(shownViews)], data.threshold);
      }),
      { numRuns: 500 },
    );
  });

  it('makes a period’s counts the sums of its months’ published cells, and nothing else', () => {
    fc.assert(
      fc.property(dataset, (data) => {
        const facts = factsOf(data);
        const releases = facts.map((month) => releaseMonth(month, data.threshold));
        const period = combineReleases(releases, facts, data.threshold);
        for (const { name, requests } of period.requests_by_category.categories) {
          const fromMonths = releases.reduce((sum, release) => sum + (release.requestsByCategory.shown.find((cell) => cell.key === name)?.count ?? 0), 0);
          expect(requests).toBe(fromMonths);
        }
        const otherFromMonths = releases.reduce((sum, release) => sum + (release.requestsByCategory.other?.count ?? 0), 0);
        expect(period.requests_by_category.other ?? 0).toBe(otherFromMonths);
        const views = releases.reduce((sum, release) => sum + (release.benefitViews.status === 'shown' ? release.benefitViews.value : 0), 0);
        if (period.benefit_views.status === 'shown') expect(period.benefit_views.value).toBe(views);
        else expect(views).toBe(0);
      }),
      { numRuns: 200 },
    );
  });
});
