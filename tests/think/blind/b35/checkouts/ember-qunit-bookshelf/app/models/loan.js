import Model, { attr, belongsTo } from '@ember-data/model';

export default class LoanModel extends Model {
  @attr('date') checkedOutAt;
  @attr('date') dueAt;
  @attr('date') returnedAt;
  @belongsTo('book', { async: false, inverse: 'loans' }) book;
  @belongsTo('member', { async: false, inverse: 'loans' }) member;

  get isReturned() {
    return Boolean(this.returnedAt);
  }
}
