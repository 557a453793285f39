import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Checkbox, CheckboxGroup } from '../../../src/widgets/Checkbox.tsx';
import { Switch } from '../../../src/widgets/Switch.tsx';

describe('Checkbox', () => {
  it('takes its description into its name and reports each tick', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    render(<Checkbox onChange={onChange} description="The employee may skip it.">Optional</Checkbox>);
    await user.click(screen.getByRole('checkbox', { name: /^Optional\s*The employee may skip it\.$/ }));
    expect(onChange).toHaveBeenCalledWith(true);
  });

  it('in a group, reports the ticked values and ties the error to the group', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    render(
      <CheckboxGroup label="Categories" value={['1']} onChange={onChange} errorMessage="Choose at least one">
        <Checkbox value="1">Home</Checkbox>
        <Checkbox value="2">Pets</Checkbox>
      </CheckboxGroup>,
    );
    expect(screen.getByRole('group', { name: 'Categories' })).toHaveAccessibleDescription('Choose at least one');
    await user.click(screen.getByRole('checkbox', { name: 'Pets' }));
    expect(onChange).toHaveBeenCalledWith(['1', '2']);
  });
});

describe('Switch', () => {
  it('is a switch named by its label, drawn with a track', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    render(<Switch onChange={onChange}>Show only my benefits</Switch>);
    const control = screen.getByRole('switch', { name: 'Show only my benefits' });
    expect(control.closest('label')?.querySelector('.lc-switch__track')).not.toBeNull();
    await user.click(control);
    expect(onChange).toHaveBeenCalledWith(true);
  });
});
