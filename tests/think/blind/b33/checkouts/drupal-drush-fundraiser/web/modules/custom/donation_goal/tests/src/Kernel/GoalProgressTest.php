<?php

namespace Drupal\Tests\donation_goal\Kernel;

use Drupal\KernelTests\KernelTestBase;

/**
 * @group donation_goal
 */
class GoalProgressTest extends KernelTestBase {

  protected static $modules = ['system', 'user', 'donation_goal'];

  public function testPercentage(): void {
    $progress = $this->container->get('donation_goal.progress');
    $this->assertSame(50, $progress->percentage(500, 1000));
  }

}
