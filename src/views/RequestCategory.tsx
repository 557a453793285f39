import { PendingScreen } from './PendingScreen.tsx';

export default function RequestCategory() {
  return <PendingScreen title="Requests" />;
}
