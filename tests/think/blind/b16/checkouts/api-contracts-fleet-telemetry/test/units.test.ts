import { kmhToMps } from '../src/units';

test('converts km/h to m/s', () => {
  expect(kmhToMps(36)).toBeCloseTo(10);
});
