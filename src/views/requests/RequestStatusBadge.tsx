import { type RequestStatus, requestStatusLabel } from '../../contract/requests.ts';
import { StatusBadge, type StatusTone } from '../../widgets/StatusBadge.tsx';

/** One colour per request status on every screen (issue 32): waiting is amber, being worked on blue, done green. */
const REQUEST_STATUS_TONES: Record<RequestStatus, StatusTone> = {
  open: 'warning',
  in_progress: 'info',
  closed: 'success',
};

/** SPEC §4 Request status: 'In Queue', 'In Progress', 'Completed', or 'Unknown', as the kit's status badge. */
export function RequestStatusBadge({ status }: { status: string }) {
  const tone = (REQUEST_STATUS_TONES as Record<string, StatusTone | undefined>)[status] ?? 'neutral';
  return <StatusBadge tone={tone}>{requestStatusLabel(status)}</StatusBadge>;
}
