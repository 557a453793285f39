import { CalendarDate, parseDateTime } from '@internationalized/date';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DatePicker } from '../../../src/widgets/DatePicker.tsx';

describe('DatePicker', () => {
  it('picks a day from its calendar', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    render(<DatePicker label="Move-in date" isRequired defaultValue={new CalendarDate(2025, 6, 15)} onChange={onChange} />);
    await user.click(screen.getByRole('button', { name: /Calendar/ }));
    const calendar = screen.getByRole('dialog');
    await user.click(within(calendar).getByRole('button', { name: /June 20, 2025/ }));
    expect(onChange).toHaveBeenCalledWith(new CalendarDate(2025, 6, 20));
  });

  it('types a time as well with a minute granularity, and says when the field is optional or wrong', () => {
    render(<DatePicker label="Call at" granularity="minute" defaultValue={parseDateTime('2025-06-15T09:30')} errorMessage="Choose a later time" />);
    expect(screen.getByText('(optional)')).toBeInTheDocument();
    const group = screen.getByRole('group', { name: /Call at/ });
    expect(within(group).getByRole('spinbutton', { name: /hour/i })).toHaveAttribute('aria-valuenow', '9');
    expect(within(group).getByRole('spinbutton', { name: /minute/i })).toHaveAttribute('aria-valuenow', '30');
    expect(screen.getByText('Choose a later time')).toBeVisible();
  });
});
