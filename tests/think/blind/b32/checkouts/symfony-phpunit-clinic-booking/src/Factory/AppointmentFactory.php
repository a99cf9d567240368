<?php

namespace App\Factory;

use App\Entity\Appointment;
use Zenstruck\Foundry\Persistence\PersistentProxyObjectFactory;

/**
 * @extends PersistentProxyObjectFactory<Appointment>
 */
final class AppointmentFactory extends PersistentProxyObjectFactory
{
    public static function class(): string
    {
        return Appointment::class;
    }

    protected function defaults(): array|callable
    {
        return [
            'patient' => PatientFactory::new(),
            'practitioner' => PractitionerFactory::new(),
            'startsAt' => \DateTimeImmutable::createFromMutable(self::faker()->dateTimeBetween('+1 day', '+30 days')),
            'durationMinutes' => 30,
        ];
    }
}
