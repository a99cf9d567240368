import { module, test } from 'qunit';
import { setupTest } from 'bookshelf/tests/helpers';

module('Unit | Model | loan', function (hooks) {
  setupTest(hooks);

  test('isReturned is false until returnedAt is set', function (assert) {
    const store = this.owner.lookup('service:store');
    const loan = store.createRecord('loan', { checkedOutAt: new Date('2025-10-01') });
    assert.false(loan.isReturned);
    loan.returnedAt = new Date('2025-10-09');
    assert.true(loan.isReturned);
  });
});
