import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppToasts } from '../../../src/app/RootLayout.tsx';
import type { AppActor } from '../../../src/machines/app.machine.ts';
import WidgetGallery from '../../../src/views/dev/WidgetGallery.tsx';
import { inApp, startTestApp } from '../../machines/appSystem.support.tsx';

let app: AppActor;
beforeEach(() => {
  app = startTestApp();
});

afterEach(() => {
  app.stop();
  vi.restoreAllMocks();
});

describe('WidgetGallery', () => {
  it('shows every widget section without a single console error (no bad option values, no React warnings)', () => {
    const consoleError = vi.spyOn(console, 'error');
    render(inApp(app, <WidgetGallery />));
    const sections = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    expect(sections).toEqual([
      'Buttons', 'Chips', 'Status badges', 'Text inputs', 'Phone input', 'Messages', 'Tabs', 'Tables', 'Dialogs', 'Menus', 'Choices',
      'Dates and times', 'Search and plain pressables', 'Drawers', 'Toasts',
      'Spinner, progress and skeleton', 'Confetti', 'Category icons', 'Count badges', 'Formatters', 'File uploader',
    ]);
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('opens a drawer and triggers a toast', async () => {
    const user = userEvent.setup();
    render(inApp(app, <><WidgetGallery /><AppToasts /></>));
    await user.click(screen.getByRole('button', { name: 'Open left nav' }));
    const dialog = screen.getByRole('dialog', { name: 'Drawer: left nav' });
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await user.click(screen.getByRole('button', { name: 'Show a toast' }));
    expect(screen.getByRole('list', { name: 'Notifications' })).toHaveTextContent('Saved. This toast stays until closed.');
    // Each toast has an id of its own: a second one is added beside the first.
    await user.click(screen.getByRole('button', { name: 'Show a toast' }));
    expect(within(screen.getByRole('list', { name: 'Notifications' })).getAllByRole('listitem')).toHaveLength(2);
  });
});
