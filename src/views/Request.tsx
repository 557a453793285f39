import { PendingScreen } from './PendingScreen.tsx';

export default function Request() {
  return <PendingScreen title="Request Details" />;
}
