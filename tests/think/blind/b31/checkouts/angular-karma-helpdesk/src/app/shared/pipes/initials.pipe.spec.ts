import { InitialsPipe } from './initials.pipe';

describe('InitialsPipe', () => {
  const pipe = new InitialsPipe();

  it('takes the first letter of the first two words', () => {
    expect(pipe.transform('ada king lovelace')).toBe('AK');
  });

  it('returns an empty string for null', () => {
    expect(pipe.transform(null)).toBe('');
  });
});
