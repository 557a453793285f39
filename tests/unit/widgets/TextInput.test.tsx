import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { TextInput } from '../../../src/widgets/TextInput.tsx';

describe('TextInput', () => {
  it('labels a required field without a suffix and marks it required', () => {
    render(<TextInput label="Email" name="email" type="email" isRequired />);
    const input = screen.getByRole('textbox', { name: 'Email' });
    expect(input).toHaveAttribute('type', 'email');
    expect(input).toHaveAttribute('name', 'email');
    expect(input).toBeRequired();
  });

  it("adds '(optional)' to fields not marked required", () => {
    render(<TextInput label="Address line 2" />);
    expect(screen.getByRole('textbox', { name: 'Address line 2 (optional)' })).not.toBeRequired();
  });

  it('required fields do not block submission: validation messages are the app’s', async () => {
    const onSubmit = vi.fn((event: React.FormEvent) => event.preventDefault());
    render(<form onSubmit={onSubmit}><TextInput label="Email" isRequired /><button type="submit">Send</button></form>);
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSubmit).toHaveBeenCalled();
  });

  it('shows an error message beneath an invalid field and describes the field with it', () => {
    render(<TextInput label="Email" isRequired errorMessage="Please enter your email address" />);
    const input = screen.getByRole('textbox', { name: 'Email' });
    expect(input).toBeInvalid();
    expect(input).toHaveAccessibleDescription('Please enter your email address');
    expect(screen.getByText('Please enter your email address').parentElement?.querySelector('svg')).not.toBeNull();
  });

  it('is valid without an error message', () => {
    render(<TextInput label="Email" isRequired />);
    expect(screen.getByRole('textbox', { name: 'Email' })).toBeValid();
  });

  it('reports typed text through onChange', async () => {
    const onChange = vi.fn();
    render(<TextInput label="First name" isRequired onChange={onChange} />);
    await userEvent.type(screen.getByRole('textbox', { name: 'First name' }), 'Ana');
    expect(onChange).toHaveBeenLastCalledWith('Ana');
  });

  it('holds a number as text with a numeric keyboard', async () => {
    render(<TextInput label="Age" type="number" isRequired defaultValue="007" />);
    const input = screen.getByRole('textbox', { name: 'Age' });
    expect(input).toHaveAttribute('type', 'text');
    expect(input).toHaveAttribute('inputmode', 'numeric');
    expect(input).toHaveValue('007');
  });

  it('renders a textarea with the given rows', () => {
    render(<TextInput label="Details" type="textarea" rows={6} isRequired />);
    const textarea = screen.getByRole('textbox', { name: 'Details' });
    expect(textarea.tagName).toBe('TEXTAREA');
    expect(textarea).toHaveAttribute('rows', '6');
  });

  it.each(['date', 'password', 'search', 'tel', 'url'] as const)('passes type %s to the input', (type) => {
    const { container } = render(<TextInput label="Field" type={type} isRequired />);
    expect(container.querySelector('input')).toHaveAttribute('type', type);
  });

  it('shows its description and placeholder', () => {
    render(<TextInput label="Email" isRequired description="We never share it" placeholder="you@example.com" />);
    const input = screen.getByRole('textbox', { name: 'Email' });
    expect(input).toHaveAccessibleDescription('We never share it');
    expect(input).toHaveAttribute('placeholder', 'you@example.com');
  });

  it('is reached with Tab', async () => {
    render(<><button type="button">Before</button><TextInput label="Email" isRequired /></>);
    await userEvent.click(screen.getByRole('button', { name: 'Before' }));
    await userEvent.tab();
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveFocus();
  });
});

describe('TextInput with a mask', () => {
  it('formats what the user types and shows the mask as placeholder', async () => {
    render(<TextInput label="Code" mask="aa-999" isRequired />);
    const input = screen.getByRole('textbox', { name: 'Code' });
    expect(input).toHaveAttribute('placeholder', '__-___');
    await userEvent.type(input, 'x1y-345');
    expect(input).toHaveValue('xy-345');
  });

  it('deletes back through the inserted literals', async () => {
    render(<TextInput label="Code" mask="99-99" isRequired />);
    const input = screen.getByRole('textbox', { name: 'Code' });
    await userEvent.type(input, '123');
    expect(input).toHaveValue('12-3');
    await userEvent.type(input, '{Backspace}');
    expect(input).toHaveValue('12');
    await userEvent.type(input, '{Backspace}{Backspace}');
    expect(input).toHaveValue('');
  });

  it('clears an incomplete value on blur and tells the owner', async () => {
    const onChange = vi.fn();
    const onBlur = vi.fn();
    render(<TextInput label="Code" mask="99-99" isRequired onChange={onChange} onBlur={onBlur} />);
    const input = screen.getByRole('textbox', { name: 'Code' });
    await userEvent.type(input, '123');
    await userEvent.tab();
    expect(input).toHaveValue('');
    expect(onChange).toHaveBeenLastCalledWith('');
    expect(onBlur).toHaveBeenCalledTimes(1);
  });

  it('keeps a complete value on blur, optional part or not', async () => {
    render(<>
      <TextInput label="Full" mask="99-99" isRequired />
      <TextInput label="Short" mask="99?-99" isRequired />
    </>);
    await userEvent.type(screen.getByRole('textbox', { name: 'Full' }), '1234');
    await userEvent.type(screen.getByRole('textbox', { name: 'Short' }), '12');
    await userEvent.tab();
    expect(screen.getByRole('textbox', { name: 'Full' })).toHaveValue('12-34');
    expect(screen.getByRole('textbox', { name: 'Short' })).toHaveValue('12');
  });

  it('works controlled', async () => {
    function Controlled() {
      const [value, setValue] = useState('');
      return <><TextInput label="Code" mask="99-99" isRequired value={value} onChange={setValue} /><output>{value}</output></>;
    }
    render(<Controlled />);
    await userEvent.type(screen.getByRole('textbox', { name: 'Code' }), '1234');
    expect(screen.getByRole('status')).toHaveTextContent('12-34');
  });
});
