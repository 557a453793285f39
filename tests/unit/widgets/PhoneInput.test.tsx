import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { PhoneInput, phoneDigits } from '../../../src/widgets/PhoneInput.tsx';

describe('PhoneInput', () => {
  it('masks the number as (999) 999-9999 and reports the masked text', async () => {
    const onChange = vi.fn();
    render(<PhoneInput label="Phone" name="phone" isRequired onChange={onChange} />);
    const input = screen.getByRole('textbox', { name: 'Phone' });
    expect(input).toHaveAttribute('type', 'tel');
    expect(input).toHaveAttribute('placeholder', '(___) ___-____');
    await userEvent.type(input, '2125551212');
    expect(input).toHaveValue('(212) 555-1212');
    expect(onChange).toHaveBeenLastCalledWith('(212) 555-1212');
  });

  it('formats a pasted number', async () => {
    render(<PhoneInput label="Phone" isRequired />);
    const input = screen.getByRole('textbox', { name: 'Phone' });
    await userEvent.click(input);
    await userEvent.paste('212-555-1212');
    expect(input).toHaveValue('(212) 555-1212');
  });

  it('uses the given slot character and mask', () => {
    render(<PhoneInput label="Phone" isRequired mask="999-9999" slotChar="#" />);
    expect(screen.getByRole('textbox', { name: 'Phone' })).toHaveAttribute('placeholder', '###-####');
  });

  it('keeps a given placeholder', () => {
    render(<PhoneInput label="Phone" isRequired placeholder="2125551212" />);
    expect(screen.getByRole('textbox', { name: 'Phone' })).toHaveAttribute('placeholder', '2125551212');
  });

  it("is optional unless required, and clears an incomplete number on blur", async () => {
    render(<PhoneInput label="Phone" />);
    const input = screen.getByRole('textbox', { name: 'Phone (optional)' });
    await userEvent.type(input, '212555');
    await userEvent.tab();
    expect(input).toHaveValue('');
  });

  it('shows an error', () => {
    render(<PhoneInput label="Phone" isRequired errorMessage="Please enter a valid phone number" />);
    expect(screen.getByRole('textbox', { name: 'Phone' })).toHaveAccessibleDescription('Please enter a valid phone number');
  });
});

describe('phoneDigits', () => {
  it('keeps only the digits', () => {
    expect(phoneDigits('(212) 555-1212')).toBe('2125551212');
    expect(phoneDigits('')).toBe('');
  });
});
