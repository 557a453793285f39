import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Select } from '../../../src/widgets/Select.tsx';

const ROLES = [{ id: 'concierge', label: 'Concierge' }, { id: 'admin', label: 'Admin' }] as const;

describe('Select', () => {
  it('shows the chosen option and reports the key of another one', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    render(<Select label="Role" options={ROLES} value="concierge" onChange={onChange} />);
    const button = screen.getByRole('button', { name: /Role/ });
    expect(button).toHaveTextContent('Concierge');
    await user.click(button);
    await user.click(screen.getByRole('option', { name: 'Admin' }));
    expect(onChange).toHaveBeenCalledWith('admin');
  });

  it('ties its error message to the field and can hide its label', () => {
    render(<Select label="Role of Ana" isLabelHidden options={ROLES} value="admin" onChange={() => {}} errorMessage="Choose another role" />);
    expect(screen.getByText('Role of Ana')).toHaveClass('lc-visually-hidden');
    expect(screen.getByText('Choose another role')).toBeVisible();
    expect(screen.getByRole('button', { name: /Role of Ana/ })).toHaveAccessibleDescription(/Choose another role/);
  });
});
