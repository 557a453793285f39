import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Button } from '../../../src/widgets/Button.tsx';
import { Menu, MenuItem, MenuTrigger } from '../../../src/widgets/Menu.tsx';

describe('Menu', () => {
  it('opens from its trigger with its header, names items by their label and describes them, and reports the action', async () => {
    const onAction = vi.fn();
    const user = userEvent.setup();
    render(
      <MenuTrigger>
        <Button variant="secondary">Assign</Button>
        <Menu aria-label="Assign to" onAction={onAction} header={<strong>Request 7</strong>}>
          <MenuItem id={3} description="Concierge">Ana Alvarez</MenuItem>
          <MenuItem id={4}>Ben Brown</MenuItem>
        </Menu>
      </MenuTrigger>,
    );
    await user.click(screen.getByRole('button', { name: 'Assign' }));
    expect(screen.getByText('Request 7')).toBeVisible();
    const ana = screen.getByRole('menuitem', { name: 'Ana Alvarez' });
    expect(ana).toHaveAccessibleDescription('Concierge');
    await user.click(screen.getByRole('menuitem', { name: 'Ben Brown' }));
    expect(onAction.mock.calls).toEqual([[4, undefined]]);
  });
});
