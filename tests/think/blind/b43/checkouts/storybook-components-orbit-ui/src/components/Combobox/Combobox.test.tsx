import { render, screen } from '@testing-library/react';
import { Combobox } from './Combobox';

const fruits = ['Apple', 'Apricot', 'Banana', 'Cherry'];

describe('Combobox', () => {
  it('renders the input with its label', () => {
    render(<Combobox label="Fruit" items={fruits} />);
    expect(screen.getByLabelText('Fruit')).toBeInTheDocument();
  });
});
