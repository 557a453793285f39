import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ChoiceField, Radio, RadioGroup } from '../../../src/widgets/RadioGroup.tsx';

const POLICIES = [
  { value: 'optional', label: 'Optional', description: 'Each employee decides' },
  { value: 'required', label: 'Required' },
] as const;

describe('ChoiceField', () => {
  it('offers one radio per option, its description part of its name, and reports the choice', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    render(<ChoiceField label="Multi-factor authentication" options={POLICIES} value="optional" onChange={onChange} />);
    expect(screen.getByRole('radiogroup', { name: 'Multi-factor authentication' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /^Optional\s*Each employee decides$/ })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: 'Required' }));
    expect(onChange).toHaveBeenCalledWith('required');
  });

  it('says when it is invalid, beside the group', () => {
    render(<ChoiceField label="Policy" options={POLICIES} value="optional" onChange={() => {}} errorMessage="Choose a policy" />);
    expect(screen.getByRole('radiogroup', { name: 'Policy' })).toHaveAccessibleDescription('Choose a policy');
  });
});

describe('Radio', () => {
  it('draws a dot only in the dot variant; a custom one is drawn by the caller', () => {
    render(
      <RadioGroup label="Filter" isLabelHidden isOptional defaultValue="all">
        <Radio value="all" className="lc-tile">All</Radio>
        <Radio value="pet" variant="custom" className="lc-tile">Pet</Radio>
      </RadioGroup>,
    );
    const [dot, custom] = screen.getAllByRole('radio').map((input) => input.closest('label'));
    expect(dot).toHaveClass('lc-radio', 'lc-radio--dot', 'lc-tile');
    expect(dot?.querySelector('.lc-radio__dot')).not.toBeNull();
    expect(custom).toHaveClass('lc-radio--custom', 'lc-tile');
    expect(custom?.querySelector('.lc-radio__dot')).toBeNull();
  });
});
