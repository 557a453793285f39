import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dismissToast, toastsActor } from '../../../src/services/toasts.ts';
import { ToastRegion } from '../../../src/widgets/ToastRegion.tsx';
import WidgetGallery from '../../../src/views/dev/WidgetGallery.tsx';

afterEach(() => {
  for (const toast of toastsActor.getSnapshot().context.toasts) dismissToast(toast.id);
  vi.restoreAllMocks();
});

describe('WidgetGallery', () => {
  it('shows every widget section without a single console error (no bad option values, no React warnings)', () => {
    const consoleError = vi.spyOn(console, 'error');
    render(<WidgetGallery />);
    const sections = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    expect(sections).toEqual([
      'Buttons', 'Chips', 'Text inputs', 'Phone input', 'Messages', 'Tabs', 'Drawers', 'Toasts',
      'Spinner, progress and skeleton', 'Confetti', 'Category icons', 'Formatters', 'File uploader',
    ]);
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('opens a drawer and triggers a toast', async () => {
    const user = userEvent.setup();
    render(<><WidgetGallery /><ToastRegion /></>);
    await user.click(screen.getByRole('button', { name: 'Open left nav' }));
    const dialog = screen.getByRole('dialog', { name: 'Drawer: left nav' });
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await user.click(screen.getByRole('button', { name: 'Show a toast' }));
    expect(screen.getByRole('list', { name: 'Notifications' })).toHaveTextContent('Saved. This toast stays until closed.');
  });
});
