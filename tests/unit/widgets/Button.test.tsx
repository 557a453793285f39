import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Button, LinkButton, type ButtonVariant } from '../../../src/widgets/Button.tsx';
import { RIPPLE_DURATION_MS } from '../../../src/widgets/ripple.tsx';

afterEach(() => vi.restoreAllMocks());

describe('Button', () => {
  it('is a primary button of type button by default', () => {
    render(<Button>Save</Button>);
    const button = screen.getByRole('button', { name: 'Save' });
    expect(button).toHaveAttribute('type', 'button');
    expect(button).toHaveClass('lc-button--primary');
  });

  it('submits its form when of type submit', async () => {
    const onSubmit = vi.fn((event: React.FormEvent) => event.preventDefault());
    render(<form onSubmit={onSubmit}><Button type="submit">Sign in</Button></form>);
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('is pressed with the mouse, Enter and Space', async () => {
    const onPress = vi.fn();
    const user = userEvent.setup();
    render(<Button onPress={onPress}>Go</Button>);
    await user.tab();
    expect(screen.getByRole('button', { name: 'Go' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await user.keyboard(' ');
    await user.click(screen.getByRole('button', { name: 'Go' }));
    expect(onPress).toHaveBeenCalledTimes(3);
  });

  it('ripples for about 401 ms where it is pressed (SPEC §9), also on a key press, and keeps its own onPressStart', async () => {
    const onPressStart = vi.fn();
    const user = userEvent.setup();
    render(<Button onPressStart={onPressStart}>Go</Button>);
    const button = screen.getByRole('button', { name: 'Go' });
    await user.click(button);
    button.focus();
    await user.keyboard('{Enter}');
    const ripples = screen.getAllByTestId('ripple');
    expect(ripples).toHaveLength(2);
    for (const ripple of ripples) {
      expect(ripple).toHaveAttribute('aria-hidden', 'true');
      expect(ripple.style.animationDuration).toBe(`${RIPPLE_DURATION_MS}ms`);
    }
    expect(button).toHaveAccessibleName('Go');
    expect(onPressStart).toHaveBeenCalledTimes(2);
    await waitFor(() => expect(screen.queryByTestId('ripple')).not.toBeInTheDocument(), { timeout: 2 * RIPPLE_DURATION_MS });
  });

  it('does not ripple for a user who asked for less motion, nor while loading', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(prefers-reduced-motion: reduce)',
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    }));
    const user = userEvent.setup();
    render(<Button>Calm</Button>);
    await user.click(screen.getByRole('button', { name: 'Calm' }));
    expect(screen.queryByTestId('ripple')).not.toBeInTheDocument();
    vi.unstubAllGlobals();

    render(<Button isLoading>Busy</Button>);
    await user.click(screen.getByRole('button', { name: /Busy/ }));
    expect(screen.queryByTestId('ripple')).not.toBeInTheDocument();
  });

  it('while loading shows a spinner labelled Loading, is busy and blocks presses but stays focusable', async () => {
    const onPress = vi.fn();
    const user = userEvent.setup();
    render(<Button isLoading onPress={onPress}>Save</Button>);
    const button = screen.getByRole('button', { name: /Save/ });
    expect(screen.getByRole('progressbar', { name: 'Loading' })).toBeInTheDocument();
    expect(button).toHaveAttribute('aria-busy', 'true');
    await user.tab();
    expect(button).toHaveFocus();
    await user.keyboard('{Enter}');
    await user.keyboard(' ');
    await user.click(button);
    expect(onPress).not.toHaveBeenCalled();
  });

  it('a loading submit button does not submit its form', async () => {
    const onSubmit = vi.fn((event: React.FormEvent) => event.preventDefault());
    render(<form onSubmit={onSubmit}><Button type="submit" isLoading>Sign in</Button></form>);
    await userEvent.click(screen.getByRole('button', { name: /Sign in/ }));
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('when disabled cannot be pressed', async () => {
    const onPress = vi.fn();
    render(<Button isDisabled onPress={onPress}>Save</Button>);
    const button = screen.getByRole('button', { name: 'Save' });
    expect(button).toBeDisabled();
    await userEvent.click(button);
    expect(onPress).not.toHaveBeenCalled();
  });

  it('reports an invalid variant during development', () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    render(<Button variant={'fancy' as ButtonVariant}>Save</Button>);
    expect(consoleError).toHaveBeenCalledWith(expect.stringContaining("Button: invalid variant 'fancy'"));
  });
});

describe('LinkButton', () => {
  it('is a link styled as a button', () => {
    render(<LinkButton href="/dashboard" variant="secondary">Go to Home</LinkButton>);
    const link = screen.getByRole('link', { name: 'Go to Home' });
    expect(link).toHaveAttribute('href', '/dashboard');
    expect(link).toHaveClass('lc-button', 'lc-button--secondary');
    expect(link).not.toHaveAttribute('rel');
  });

  it('opens outside pages in a new tab without giving them the opener', () => {
    render(<LinkButton href="https://example.com" target="_blank">Partner</LinkButton>);
    const link = screen.getByRole('link', { name: 'Partner' });
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });
});

describe('Button announcements', () => {
  it('leaves no live-region announcement pointing at a loading button once the button is gone', async () => {
    const user = userEvent.setup();
    function Saving({ loading }: { loading: boolean }) {
      return <Button isLoading={loading}>Save</Button>;
    }
    const { rerender } = render(<Saving loading={false} />);
    await user.tab();
    rerender(<Saving loading />);
    rerender(<p>Next page</p>);
    const dangling = [...document.querySelectorAll('[aria-labelledby]')].filter((node) =>
      node.getAttribute('aria-labelledby')!.split(' ').some((id) => !document.getElementById(id)),
    );
    expect(dangling).toEqual([]);
  });
});
