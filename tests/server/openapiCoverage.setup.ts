import { clearCoverage } from '../../server/openapi/responseCheck.ts';

/** Vitest's global setup: a run of the server suites records its route x status pairs afresh (issue 30 point 4). */
export default function setup() {
  clearCoverage('server');
}
