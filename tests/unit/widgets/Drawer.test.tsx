import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Drawer, type DrawerProps } from '../../../src/widgets/Drawer.tsx';

afterEach(() => vi.restoreAllMocks());

type Options = Partial<Omit<DrawerProps, 'isOpen' | 'onOpenChange' | 'title' | 'children'>>;

function Harness(options: Options) {
  const [isOpen, setIsOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setIsOpen(true)}>Open drawer</button>
      <Drawer isOpen={isOpen} onOpenChange={setIsOpen} title="Request categories" {...options}>
        <p>Explore request ideas from the following categories.</p>
        <button type="button">Inside</button>
      </Drawer>
    </>
  );
}

async function openDrawer(options: Options = {}) {
  const user = userEvent.setup();
  render(<Harness {...options} />);
  await user.click(screen.getByRole('button', { name: 'Open drawer' }));
  return user;
}

describe('Drawer', () => {
  it('opens as a dialog named by its title, with the title as heading', async () => {
    await openDrawer();
    const dialog = screen.getByRole('dialog', { name: 'Request categories' });
    expect(within(dialog).getByRole('heading', { name: 'Request categories' })).toBeInTheDocument();
    expect(dialog).toHaveTextContent('Explore request ideas from the following categories.');
  });

  it('is a padded panel sliding from the right by default', async () => {
    await openDrawer();
    const drawer = document.querySelector('.lc-drawer');
    expect(drawer).toHaveClass('lc-drawer--right', 'lc-drawer--panel');
    expect(document.querySelector('.lc-drawer__body')).toHaveClass('lc-drawer__body--padded');
  });

  it.each(['left', 'top', 'bottom'] as const)('can come from the %s', async (position) => {
    await openDrawer({ position });
    expect(document.querySelector('.lc-drawer')).toHaveClass(`lc-drawer--${position}`);
  });

  it('takes the nav variant, full screen and full bleed', async () => {
    await openDrawer({ variant: 'nav', fullScreen: true, fullBleed: true });
    expect(document.querySelector('.lc-drawer')).toHaveClass('lc-drawer--nav', 'lc-drawer--full-screen');
    expect(document.querySelector('.lc-drawer__body')).not.toHaveClass('lc-drawer__body--padded');
  });

  it('keeps focus inside while open', async () => {
    const user = await openDrawer();
    const dialog = screen.getByRole('dialog');
    for (let step = 0; step < 4; step += 1) {
      await user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
  });

  it('blocks page scrolling while open', async () => {
    await openDrawer();
    expect(document.documentElement.style.overflow).toBe('hidden');
  });

  it('is not dismissed by Escape or a backdrop click by default', async () => {
    const user = await openDrawer();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    await user.click(document.querySelector('.lc-drawer-overlay') as HTMLElement);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('closes from its Close button and gives focus back to the opener', async () => {
    const user = await openDrawer();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // React Aria restores focus in the frame after the dialog unmounts.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Open drawer' })).toHaveFocus());
  });

  it('closes on Escape when dismissable', async () => {
    const user = await openDrawer({ isDismissable: true });
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('closes on a backdrop click when dismissable', async () => {
    const user = await openDrawer({ isDismissable: true });
    await user.click(document.querySelector('.lc-drawer-overlay') as HTMLElement);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('can keep its title for screen readers only', async () => {
    await openDrawer({ isTitleHidden: true });
    expect(screen.getByRole('heading', { name: 'Request categories' })).toHaveClass('lc-visually-hidden');
    expect(screen.getByRole('dialog', { name: 'Request categories' })).toBeInTheDocument();
  });

  it('reports a bad position or variant during development', () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    render(<Drawer isOpen={false} onOpenChange={() => {}} title="T" {...({ position: 'middle', variant: 'sheet' } as unknown as Options)}>x</Drawer>);
    const messages = consoleError.mock.calls.map(([message]) => String(message));
    expect(messages).toContainEqual(expect.stringContaining("Drawer: invalid position 'middle'"));
    expect(messages).toContainEqual(expect.stringContaining("Drawer: invalid variant 'sheet'"));
  });
});
