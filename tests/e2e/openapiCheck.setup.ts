import { clearCoverage } from '../../server/openapi/responseCheck.ts';

/** Playwright's global setup: the end-to-end servers record this run's route x status pairs afresh (issue 30). */
export default function setup() {
  clearCoverage('e2e');
}
