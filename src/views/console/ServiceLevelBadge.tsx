import { targetInWords } from '../../contract/businessHours.ts';
import { type ConsoleServiceLevel, STATE_LABELS, type ServiceLevelState, TARGET_LABELS, dueInWords, promiseTime } from '../../contract/sla.ts';
import { StatusBadge, type StatusTone } from '../../widgets/StatusBadge.tsx';
import { Switch } from '../../widgets/Switch.tsx';

/** One colour per turnaround state (issue 28): fine is blue, at risk amber, breached red, met green. */
const SERVICE_LEVEL_TONES: Record<ServiceLevelState, StatusTone> = {
  on_track: 'info',
  at_risk: 'warning',
  breached: 'danger',
  met: 'success',
};

export const WAITING_ON_EMPLOYEE = 'Waiting on employee';

/** The state of the target in play, as the kit's status badge. */
export function ServiceLevelBadge({ level }: { level: ConsoleServiceLevel }) {
  return <StatusBadge tone={SERVICE_LEVEL_TONES[level.state]}>{STATE_LABELS[level.state]}</StatusBadge>;
}

/** "due in 2 h", "breached 35 min ago", or why there is no due time (paused, settled). */
export function timeLeftInWords(level: ConsoleServiceLevel, now: Date): string | null {
  if (level.waiting_on_employee) return WAITING_ON_EMPLOYEE;
  return level.due_at ? dueInWords(new Date(level.due_at), now) : null;
}

/** A queue row's turnaround: the badge and the time left or over. */
export function ServiceLevelSummary({ level, now = new Date() }: { level: ConsoleServiceLevel; now?: Date }) {
  const words = timeLeftInWords(level, now);
  return (
    <span className="lc-console-row__sla">
      <ServiceLevelBadge level={level} />
      {words && <span>{words}</span>}
    </span>
  );
}

/** When a target falls due or how it ended, in words: "due Tue 12:00", "met", "missed". */
function targetOutcome(dueAt: string | null, met: boolean | null, paused: boolean): string {
  if (met !== null) return met ? 'met' : 'missed';
  if (paused) return 'paused';
  return dueAt ? `due ${promiseTime(dueAt)}` : 'stopped';
}

/**
 * The request's turnaround in the console: both targets, the state of the one in play, and the switch that says the
 * team waits on the employee (the clock stops until they write).
 */
export function ServiceTargets({
  level,
  isCompleted,
  isBusy,
  isSaving,
  onWaitingChange,
}: {
  level: ConsoleServiceLevel;
  isCompleted: boolean;
  isBusy: boolean;
  isSaving: boolean;
  onWaitingChange: (waiting: boolean) => void;
}) {
  const words = timeLeftInWords(level, new Date());
  return (
    <section className="lc-console-targets" aria-label="Turnaround targets">
      <p className="lc-console-targets__state">
        <ServiceLevelBadge level={level} /> <span>{TARGET_LABELS[level.target]}</span>
        {words && <span>{words}</span>}
      </p>
      <dl className="lc-console-targets__list">
        <dt>First response</dt>
        <dd>
          {targetInWords(level.first_response_minutes, 0)}:{' '}
          {targetOutcome(level.first_response_due_at, level.first_response_met, level.waiting_on_employee)}
        </dd>
        <dt>Resolution</dt>
        <dd>
          {targetInWords(level.resolution_minutes, 0)}:{' '}
          {targetOutcome(level.resolution_due_at, level.resolution_met, level.waiting_on_employee)}
        </dd>
      </dl>
      {!isCompleted && (
        <Switch isSelected={level.waiting_on_employee} isDisabled={isBusy && !isSaving} onChange={onWaitingChange}>
          {WAITING_ON_EMPLOYEE}
        </Switch>
      )}
    </section>
  );
}
