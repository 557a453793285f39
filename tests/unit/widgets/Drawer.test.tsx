import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Drawer, type DrawerProps } from '../../../src/widgets/Drawer.tsx';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

function preferReducedMotion() {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query === '(prefers-reduced-motion: reduce)',
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
}

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

const sheet = () => document.querySelector<HTMLElement>('.lc-drawer');
const backdrop = () => document.querySelector<HTMLElement>('.lc-drawer-overlay');

/** Once its motion has ended: the sheet in place, the backdrop opaque. */
async function settled() {
  await waitFor(() => {
    expect(sheet()?.style.transform).toBe('none');
    expect(backdrop()).toHaveStyle({ opacity: '1' });
  });
}

/** A closed drawer stays on screen while it animates out, then unmounts. */
async function expectClosing() {
  expect(screen.getByRole('dialog')).toBeInTheDocument();
  expect(backdrop()).toHaveAttribute('data-exiting');
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
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
    await expectClosing();
    // React Aria restores focus in the frame after the dialog unmounts.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Open drawer' })).toHaveFocus());
  });

  it('closes on Escape when dismissable', async () => {
    const user = await openDrawer({ isDismissable: true });
    await user.keyboard('{Escape}');
    await expectClosing();
  });

  it('closes on a backdrop click when dismissable', async () => {
    const user = await openDrawer({ isDismissable: true });
    await user.click(backdrop() as HTMLElement);
    await expectClosing();
  });

  it.each([
    ['right', 'translateX(100%)'],
    ['left', 'translateX(-100%)'],
    ['top', 'translateY(-100%)'],
    ['bottom', 'translateY(100%)'],
  ] as const)('slides in from the %s over a fading backdrop', async (position, offScreen) => {
    render(<Drawer isOpen onOpenChange={() => {}} title="T" position={position}>x</Drawer>);
    expect(sheet()?.style.transform).toBe(offScreen);
    expect(backdrop()).toHaveStyle({ opacity: '0' });
    await settled();
  });

  it('fades in when full screen', async () => {
    render(<Drawer isOpen onOpenChange={() => {}} title="T" fullScreen>x</Drawer>);
    expect(sheet()).toHaveStyle({ opacity: '0' });
    expect(sheet()?.style.transform).toBe('');
    await waitFor(() => expect(sheet()).toHaveStyle({ opacity: '1' }));
  });

  it('slides back out on closing, and unmounts only once it is out', async () => {
    const user = await openDrawer();
    await settled();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    const offsets: number[] = [];
    await waitFor(() => {
      const transform = sheet()?.style.transform;
      if (transform) offsets.push(transform === 'none' ? 0 : Number.parseFloat(transform.replace('translateX(', '')));
      expect(sheet()).toBeNull();
    }, { interval: 20 });
    expect(offsets.some((offset) => offset > 0 && offset < 100)).toBe(true);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
  });

  it('opens again while it is still closing', async () => {
    const user = await openDrawer();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    const closing = backdrop();
    expect(closing).toHaveAttribute('data-exiting');
    await user.click(screen.getByRole('button', { name: 'Open drawer', hidden: true }));
    await settled();
    // The same drawer turned back, rather than a new one.
    expect(backdrop()).toBe(closing);
    expect(closing).not.toHaveAttribute('data-exiting');
    expect(screen.getByRole('dialog', { name: 'Request categories' })).toBeInTheDocument();
  });

  it('does not move for users who ask for reduced motion: it shows, and goes, at once', async () => {
    preferReducedMotion();
    const user = await openDrawer();
    // Once framer-motion's features have loaded (a chunk of their own), the sheet is in place, with no transition.
    await settled();
    await user.click(screen.getByRole('button', { name: 'Close' }));
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
