import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Select } from './Select';

const options = [
  { value: 'sm', label: 'Small' },
  { value: 'md', label: 'Medium' },
  { value: 'lg', label: 'Large' },
];

describe('Select', () => {
  it('renders placeholder when no value', () => {
    render(<Select options={options} placeholder="Pick a size" />);
    expect(screen.getByRole('combobox')).toHaveTextContent('Pick a size');
  });

  it('opens listbox on click', async () => {
    const user = userEvent.setup();
    render(<Select options={options} />);
    await user.click(screen.getByRole('combobox'));
    expect(screen.getByRole('listbox')).toBeVisible();
  });

  it('selects option with keyboard', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Select options={options} onChange={onChange} />);
    screen.getByRole('combobox').focus();
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(onChange).toHaveBeenCalledWith('md');
  });
});
