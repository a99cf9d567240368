<?php

namespace App\Tests\Functional;

use App\Factory\AppointmentFactory;
use App\Factory\PractitionerFactory;
use Symfony\Bundle\FrameworkBundle\Test\WebTestCase;
use Zenstruck\Foundry\Test\Factories;

final class BookingControllerTest extends WebTestCase
{
    use Factories;

    public function testSlotAlreadyTakenIsRejected(): void
    {
        $client = static::createClient();
        $practitioner = PractitionerFactory::createOne();
        $taken = AppointmentFactory::createOne(['practitioner' => $practitioner]);

        $client->request('POST', '/api/bookings', server: ['CONTENT_TYPE' => 'application/json'], content: json_encode([
            'practitioner' => $practitioner->getId(),
            'startsAt' => $taken->getStartsAt()->format(DATE_ATOM),
        ]));

        self::assertResponseStatusCodeSame(409);
    }
}
