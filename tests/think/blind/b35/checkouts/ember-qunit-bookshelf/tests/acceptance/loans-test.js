import { module, test } from 'qunit';
import { visit, currentURL } from '@ember/test-helpers';
import { setupApplicationTest } from 'bookshelf/tests/helpers';

module('Acceptance | loans', function (hooks) {
  setupApplicationTest(hooks);

  test('visiting /loans', async function (assert) {
    await visit('/loans');
    assert.strictEqual(currentURL(), '/loans');
  });
});
