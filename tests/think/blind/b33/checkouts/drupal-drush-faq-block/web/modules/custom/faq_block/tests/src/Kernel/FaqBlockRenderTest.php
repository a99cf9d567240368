<?php

namespace Drupal\Tests\faq_block\Kernel;

use Drupal\KernelTests\KernelTestBase;

/**
 * @group faq_block
 */
class FaqBlockRenderTest extends KernelTestBase {

  protected static $modules = ['system', 'block', 'faq_block'];

  public function testBuildHasDetailsElements(): void {
    $block = $this->container->get('plugin.manager.block')->createInstance('faq_block', ['items' => [['q' => 'Open on Sundays?', 'a' => 'No.']]]);
    $build = $block->build();
    $this->assertSame('details', $build['items'][0]['#type']);
  }

}
