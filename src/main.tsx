import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { readConfig } from './services/config.ts';

const root = createRoot(document.getElementById('root')!);
try {
  readConfig();
  root.render(<StrictMode><p>Life Concierge</p></StrictMode>);
} catch (error) {
  root.render(<p role="alert">{error instanceof Error ? error.message : String(error)}</p>);
}
