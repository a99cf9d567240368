import { countCells } from '../model';

describe('countCells', () => {
  it('counts code and markdown cells', () => {
    const cells = [{ type: 'code' }, { type: 'markdown' }, { type: 'code' }] as any;
    expect(countCells(cells)).toEqual({ code: 2, markdown: 1, raw: 0 });
  });

  it('handles an empty notebook', () => {
    expect(countCells([])).toEqual({ code: 0, markdown: 0, raw: 0 });
  });
});
