import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Tabs, tabId } from '../../../src/widgets/Tabs.tsx';

const TITLES = ['To do (3)', 'Completed (2)', 'Ideas'];

function renderTabs(onSelectionChange = vi.fn()) {
  render(
    <Tabs titles={TITLES} label="Requests" onSelectionChange={onSelectionChange}>
      <p>Open list</p>
      <p>Closed list</p>
      <p>Idea list</p>
    </Tabs>,
  );
  return onSelectionChange;
}

const selectedTab = () => screen.getAllByRole('tab').find((tab) => tab.getAttribute('aria-selected') === 'true');

function swipe(deltaX: number, deltaY = 0) {
  const panel = screen.getByRole('tabpanel');
  fireEvent.pointerDown(panel, { clientX: 200, clientY: 300 });
  fireEvent.pointerUp(panel, { clientX: 200 + deltaX, clientY: 300 + deltaY });
}

describe('tabId', () => {
  it('replaces every non-word character with an underscore', () => {
    expect(tabId('To do (3)')).toBe('To_do__3_');
    expect(tabId('Home / Moving')).toBe('Home___Moving');
    expect(tabId('pet_care2')).toBe('pet_care2');
  });
});

describe('Tabs', () => {
  it('starts on the first tab and shows its panel', () => {
    renderTabs();
    expect(screen.getByRole('tablist', { name: 'Requests' })).toBeInTheDocument();
    expect(selectedTab()).toHaveTextContent('To do (3)');
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Open list');
  });

  it('uses the title-derived ids as selection keys and in the DOM ids', async () => {
    const onSelectionChange = renderTabs();
    await userEvent.click(screen.getByRole('tab', { name: 'Completed (2)' }));
    expect(onSelectionChange).toHaveBeenLastCalledWith('Completed__2_');
    expect(screen.getByRole('tab', { name: 'Completed (2)' }).id).toMatch(/Completed__2_$/);
  });

  it('moves with the arrow keys', async () => {
    const user = userEvent.setup();
    renderTabs();
    await user.tab();
    expect(screen.getByRole('tab', { name: 'To do (3)' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(selectedTab()).toHaveTextContent('Completed (2)');
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Closed list');
    await user.keyboard('{ArrowLeft}');
    expect(selectedTab()).toHaveTextContent('To do (3)');
  });

  it('a swipe right of more than 50 px goes to the next tab, a swipe left back', () => {
    renderTabs();
    swipe(51);
    expect(selectedTab()).toHaveTextContent('Completed (2)');
    swipe(-51);
    expect(selectedTab()).toHaveTextContent('To do (3)');
  });

  it('ignores movements of 50 px or less and mostly vertical ones', () => {
    renderTabs();
    swipe(50);
    expect(selectedTab()).toHaveTextContent('To do (3)');
    swipe(80, 120);
    expect(selectedTab()).toHaveTextContent('To do (3)');
  });

  it('stops at the first and last tabs', () => {
    renderTabs();
    swipe(-100);
    expect(selectedTab()).toHaveTextContent('To do (3)');
    swipe(100);
    swipe(100);
    swipe(100);
    expect(selectedTab()).toHaveTextContent('Ideas');
  });

  it('follows a controlled selection and draws panels with a function', async () => {
    const onSelectionChange = vi.fn();
    const { rerender } = render(
      <Tabs titles={TITLES} selectedKey="Ideas" onSelectionChange={onSelectionChange}>
        {(title) => <p>Panel of {title}</p>}
      </Tabs>,
    );
    expect(selectedTab()).toHaveTextContent('Ideas');
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Panel of Ideas');
    swipe(-60);
    expect(onSelectionChange).toHaveBeenLastCalledWith('Completed__2_');
    expect(selectedTab()).toHaveTextContent('Ideas');
    rerender(
      <Tabs titles={TITLES} selectedKey="Completed__2_" onSelectionChange={onSelectionChange}>
        {(title) => <p>Panel of {title}</p>}
      </Tabs>,
    );
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Panel of Completed (2)');
  });
});
