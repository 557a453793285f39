import { PendingScreen } from './PendingScreen.tsx';

export default function Requests() {
  return <PendingScreen title="Requests" />;
}
