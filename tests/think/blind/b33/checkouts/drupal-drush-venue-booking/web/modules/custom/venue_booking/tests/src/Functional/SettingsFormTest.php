<?php

namespace Drupal\Tests\venue_booking\Functional;

use Drupal\Tests\BrowserTestBase;

/**
 * @group venue_booking
 */
class SettingsFormTest extends BrowserTestBase {

  protected static $modules = ['venue_booking'];

  protected $defaultTheme = 'stark';

  public function testSettingsSave(): void {
    $this->drupalLogin($this->drupalCreateUser(['administer venue booking']));
    $this->drupalGet('/admin/config/venue-booking');
    $this->submitForm([
      'notify_email' => 'bookings@example.org',
      'max_party_size' => 25,
      'lead_time_days' => 3,
    ], 'Save configuration');
    $this->assertSession()->pageTextContains('The configuration options have been saved.');
    $this->assertSame(25, $this->config('venue_booking.settings')->get('max_party_size'));
  }

}
