import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Chip, ChipRadioGroup, type ChipProps } from '../../../src/widgets/Chip.tsx';

afterEach(() => vi.restoreAllMocks());

describe('Chip as a button (default)', () => {
  it('toggles between pressed and not pressed with the mouse and Space', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    render(<Chip title="Own a home" description="House or apartment" onChange={onChange} />);
    const chip = screen.getByRole('button', { name: /Own a home/ });
    expect(chip).toHaveAttribute('aria-pressed', 'false');
    await user.click(chip);
    expect(chip).toHaveAttribute('aria-pressed', 'true');
    await user.keyboard(' ');
    expect(chip).toHaveAttribute('aria-pressed', 'false');
    expect(onChange.mock.calls).toEqual([[true], [false]]);
  });

  it('shows its title and description', () => {
    render(<Chip title="Pet" description="Dogs, cats and more" />);
    expect(screen.getByRole('button')).toHaveTextContent('PetDogs, cats and more');
  });

  it('cannot be toggled when disabled', async () => {
    render(<Chip title="Pet" description="Dogs" isDisabled />);
    await userEvent.click(screen.getByRole('button', { name: /Pet/ }));
    expect(screen.getByRole('button', { name: /Pet/ })).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByRole('button', { name: /Pet/ })).toBeDisabled();
  });

  it('shows the default image only when asked', () => {
    const { container, rerender } = render(<Chip title="Pet" description="Dogs" />);
    expect(container.querySelector('.lc-chip__image')).toBeNull();
    rerender(<Chip title="Pet" description="Dogs" image="default" />);
    expect(container.querySelector('.lc-chip__image')).toHaveAttribute('aria-hidden', 'true');
  });
});

describe('Chip as links', () => {
  it('navigates as a link', () => {
    render(<Chip variant="link" href="/requests/category/3" title="Travel" description="Trips and stays" />);
    const link = screen.getByRole('link', { name: /Travel/ });
    expect(link).toHaveAttribute('href', '/requests/category/3');
    expect(link).not.toHaveAttribute('target');
  });

  it('opens an external link in a new tab without the opener and says so', () => {
    render(<Chip variant="external-link" href="https://partner.example" title="Insurance" description="Partner site" />);
    const link = screen.getByRole('link', { name: /Insurance.*opens in a new tab/ });
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });
});

describe('Chip as radio', () => {
  function Group(props: { errorMessage?: string; onChange?: (value: string) => void }) {
    return (
      <ChipRadioGroup label="Category" {...props}>
        <Chip variant="radio" value="all" title="All" description="Everything" />
        <Chip variant="radio" value="pet" title="Pet" description="Animals" />
        <Chip variant="radio" value="car" title="Car" description="Vehicles" isDisabled />
      </ChipRadioGroup>
    );
  }

  it('is selected through its inner input, and stays selected when chosen again', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    render(<Group onChange={onChange} />);
    const pet = screen.getByRole('radio', { name: /Pet/ });
    await user.click(screen.getByText('Pet'));
    expect(pet).toBeChecked();
    await user.click(screen.getByText('Pet'));
    expect(pet).toBeChecked();
    expect(onChange).toHaveBeenCalledWith('pet');
  });

  it('moves between options with the arrow keys, skipping disabled ones', async () => {
    const user = userEvent.setup();
    render(<Group />);
    await user.tab();
    expect(screen.getByRole('radio', { name: /All/ })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('radio', { name: /Pet/ })).toBeChecked();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('radio', { name: /Car/ })).not.toBeChecked();
    expect(screen.getByRole('radio', { name: /Car/ })).toBeDisabled();
  });

  it('shows the group error and marks the options invalid', () => {
    render(<Group errorMessage="Please choose a category" />);
    expect(screen.getByRole('radiogroup', { name: 'Category' })).toHaveAccessibleDescription('Please choose a category');
    expect(screen.getByText('Pet').closest('label')).toHaveAttribute('data-invalid');
  });
});

describe('Chip as checkbox', () => {
  it('is ticked and unticked through its inner input, by mouse and Space', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    render(<Chip variant="checkbox" name="about" value="132" title="Own a home" description="House" onChange={onChange} />);
    const checkbox = screen.getByRole('checkbox', { name: /Own a home/ });
    await user.click(screen.getByText('Own a home'));
    expect(checkbox).toBeChecked();
    await user.keyboard(' ');
    expect(checkbox).not.toBeChecked();
    expect(onChange.mock.calls).toEqual([[true], [false]]);
    expect(checkbox).toHaveAttribute('name', 'about');
    expect(checkbox).toHaveAttribute('value', '132');
  });

  it('can be invalid or disabled', () => {
    render(<>
      <Chip variant="checkbox" title="Pet" description="Animals" isInvalid />
      <Chip variant="checkbox" title="Car" description="Vehicles" isDisabled />
    </>);
    expect(screen.getByRole('checkbox', { name: /Pet/ })).toBeInvalid();
    expect(screen.getByRole('checkbox', { name: /Car/ })).toBeDisabled();
  });
});

describe('Chip option checks', () => {
  it('reports a bad variant, a bad image and a missing description during development', () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    render(<>
      <Chip {...({ variant: 'tile', title: 'A', description: 'a' } as unknown as ChipProps)} />
      <Chip {...({ title: 'B', description: 'b', image: 'photo' } as unknown as ChipProps)} />
      <Chip {...({ title: 'C' } as unknown as ChipProps)} />
    </>);
    const messages = consoleError.mock.calls.map(([message]) => String(message));
    expect(messages).toContainEqual(expect.stringContaining("Chip: invalid variant 'tile'"));
    expect(messages).toContainEqual(expect.stringContaining("Chip: invalid image 'photo'"));
    expect(messages).toContainEqual(expect.stringContaining("Chip: description is required (chip 'C')"));
  });

  it('stays quiet for valid chips', () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    render(<Chip title="A" description="a" image="default" />);
    expect(consoleError).not.toHaveBeenCalled();
  });
});
