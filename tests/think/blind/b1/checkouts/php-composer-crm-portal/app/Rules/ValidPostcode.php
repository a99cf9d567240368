<?php

namespace App\Rules;

use Closure;
use Illuminate\Contracts\Validation\ValidationRule;

class ValidPostcode implements ValidationRule
{
    private const PATTERNS = [
        'GB' => '/^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/i',
        'NL' => '/^\d{4} ?[A-Z]{2}$/i',
        'DE' => '/^\d{5}$/',
        'FR' => '/^\d{5}$/',
    ];

    public function __construct(private ?string $country)
    {
    }

    public function validate(string $attribute, mixed $value, Closure $fail): void
    {
        $pattern = self::PATTERNS[strtoupper((string) $this->country)] ?? null;

        if ($pattern !== null && ! preg_match($pattern, trim((string) $value))) {
            $fail('The :attribute is not a valid postcode.');
        }
    }
}
