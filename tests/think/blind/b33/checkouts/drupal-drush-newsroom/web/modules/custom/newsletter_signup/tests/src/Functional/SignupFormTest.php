<?php

namespace Drupal\Tests\newsletter_signup\Functional;

use Drupal\Tests\BrowserTestBase;

/**
 * Tests the public newsletter signup form.
 *
 * @group newsletter_signup
 */
class SignupFormTest extends BrowserTestBase {

  protected static $modules = ['newsletter_signup'];

  protected $defaultTheme = 'stark';

  public function testFormLoads(): void {
    $this->drupalGet('/newsletter');
    $this->assertSession()->statusCodeEquals(200);
    $this->assertSession()->fieldExists('mail');
  }

  public function testSubmitStoresSubscriber(): void {
    $this->drupalGet('/newsletter');
    $this->submitForm(['mail' => 'reader@example.com'], 'Subscribe');
    $this->assertSession()->statusCodeEquals(200);
    $this->assertSession()->pageTextContains('Thanks for subscribing');
  }

}
