<?php

namespace App\Tests\Functional;

use Symfony\Bundle\FrameworkBundle\Test\WebTestCase;

final class LocaleTest extends WebTestCase
{
    public function testLocalePrefixedHomepage(): void
    {
        $client = static::createClient();
        $client->request('GET', '/fr/');

        self::assertResponseIsSuccessful();
        self::assertSelectorTextContains('h1', 'Guides de voyage');
    }
}
