import { useSelector } from '@xstate/react';
import type { TeamMember } from '../../contract/assignment.ts';
import { useFlow } from '../../machines/appSystem.tsx';
import { consoleAvailabilityMachine } from '../../machines/consoleAvailability.machine.ts';
import { Button } from '../../widgets/Button.tsx';
import { Switch } from '../../widgets/Switch.tsx';
import './ConsoleAvailability.css';

/** Who else takes new requests now, in words. */
export function teammatesAvailable(team: readonly TeamMember[], myId: number): string {
  const names = team.filter((member) => member.available && member.id !== myId).map((member) => member.full_name);
  return names.length === 0 ? 'Nobody else is available.' : `Also available: ${names.join(', ')}.`;
}

/**
 * The console header's availability switch (issue 28): Available takes new requests automatically, up to the cap;
 * Away takes none. Beside it, who else on the team is available.
 */
export function ConsoleAvailability() {
  const availability = useFlow(consoleAvailabilityMachine, { id: 'consoleAvailability' });
  const me = useSelector(availability, (snapshot) => snapshot.context.me);
  const team = useSelector(availability, (snapshot) => snapshot.context.team);
  const shown = useSelector(availability, (snapshot) => snapshot.context.shown);
  const error = useSelector(availability, (snapshot) => snapshot.context.error);
  const loadFailed = useSelector(availability, (snapshot) => snapshot.matches('loadFailed'));
  const saving = useSelector(availability, (snapshot) => snapshot.hasTag('busy'));

  return (
    <div className="lc-console-availability" aria-busy={saving || (me === null && !loadFailed)}>
      {loadFailed ? (
        <span role="alert" className="lc-console-availability__error">
          {error}{' '}
          <Button variant="tertiary" onPress={() => availability.send({ type: 'RETRY' })}>Try again</Button>
        </span>
      ) : (
        <>
          <Switch isSelected={shown} isDisabled={me === null || saving} onChange={(available) => availability.send({ type: 'SET_AVAILABLE', available })}>
            Available
          </Switch>
          {me && (
            <span className="lc-console-availability__team" role="status">
              {me.open_requests} of {me.open_request_cap} open · {teammatesAvailable(team, me.id)}
            </span>
          )}
          {error && <span role="alert" className="lc-console-availability__error">{error}</span>}
        </>
      )}
    </div>
  );
}
