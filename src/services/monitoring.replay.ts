// The replay's code (rrweb and its compression) is the heaviest part of monitoring: its own chunk, loaded last.
import { replayIntegration } from '@sentry/react';
import { redactSecretsDeep } from '../contract/secrets.ts';

/**
 * SPEC §9 session replay (10% of sessions, every session with an error) and its masking: every input, textarea and
 * select, every file field, every image and video; beyond the SPEC, every text of the page too (message threads,
 * survey answers, names and addresses are personal by nature), except the navigation, which is the app's own.
 */
export function privateReplay() {
  return replayIntegration({
    maskAllText: true,
    maskAllInputs: true,
    blockAllMedia: true,
    block: ['input[type="file"]'],
    unmask: ['nav'],
    beforeAddRecordingEvent: (event) => redactSecretsDeep(event),
  });
}
