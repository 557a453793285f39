import { PendingScreen } from '../PendingScreen.tsx';

export default function OfferingsFull() {
  return <PendingScreen title="All benefits & offers" />;
}
