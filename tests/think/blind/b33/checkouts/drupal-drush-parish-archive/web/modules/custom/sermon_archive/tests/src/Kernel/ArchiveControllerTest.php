<?php

namespace Drupal\Tests\sermon_archive\Kernel;

use Drupal\KernelTests\KernelTestBase;
use Drupal\sermon_archive\Controller\ArchiveController;

/**
 * @group sermon_archive
 */
class ArchiveControllerTest extends KernelTestBase {

  protected static $modules = ['system', 'user', 'node', 'field', 'datetime', 'sermon_archive'];

  public function testListingBuildsTable(): void {
    $this->installEntitySchema('node');
    $build = ArchiveController::create($this->container)->listing(2025);
    $this->assertSame('table', $build['sermons']['#type']);
  }

}
