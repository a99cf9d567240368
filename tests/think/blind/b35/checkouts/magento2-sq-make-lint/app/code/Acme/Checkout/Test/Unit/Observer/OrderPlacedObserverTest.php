<?php
declare(strict_types=1);

namespace Acme\Checkout\Test\Unit\Observer;

use Acme\Checkout\Observer\OrderPlacedObserver;
use Magento\Framework\Event\Observer;
use Magento\Framework\MessageQueue\PublisherInterface;
use PHPUnit\Framework\TestCase;

class OrderPlacedObserverTest extends TestCase
{
    public function testExecuteQueuesFeeExport(): void
    {
        $publisher = $this->createMock(PublisherInterface::class);
        $publisher->expects($this->once())->method('publish')->with('acme.fee.export');
        $observer = new OrderPlacedObserver($publisher);
        $observer->execute($this->createMock(Observer::class));
    }
}
