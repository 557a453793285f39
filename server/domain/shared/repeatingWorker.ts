import { type Log, errorForLog } from '../../logging.ts';

export interface RepeatingWorker {
  /** Finishes the round in progress, then stops. */
  stop(): Promise<void>;
}

/**
 * Runs `round` now and then `intervalMs` after each round ends, until stopped: the outbox's delivery, the sweep of
 * reply e-mails. A round that fails is logged, and the next one runs as planned.
 */
export function startRepeatingWorker({
  name,
  round,
  log,
  intervalMs = 1000,
}: {
  name: string;
  round: () => Promise<unknown>;
  log: Log;
  intervalMs?: number;
}): RepeatingWorker {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const runRound = async () => {
    try {
      await round();
    } catch (error) {
      log.error({ err: errorForLog(error) }, `${name} worker round failed`);
    }
    if (!stopped) timer = setTimeout(() => (running = runRound()), intervalMs);
  };
  running = runRound();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
