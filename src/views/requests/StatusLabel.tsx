import { requestStatusLabel } from '../../contract/requests.ts';

/** SPEC §4 Request status: 'In Queue', 'In Progress', 'Completed', or 'Unknown', as a coloured pill. */
export function StatusLabel({ status }: { status: string }) {
  const label = requestStatusLabel(status);
  const tone = label === 'Unknown' ? 'unknown' : status;
  return <span className={`lc-request-status lc-request-status--${tone}`}>{label}</span>;
}
