<?php

use App\Rules\ValidPostcode;
use Illuminate\Support\Facades\Validator;

function postcodePasses(string $country, string $value): bool
{
    return Validator::make(['postcode' => $value], ['postcode' => new ValidPostcode($country)])->passes();
}

it('accepts uk postcodes', function () {
    expect(postcodePasses('GB', 'SW1A 1AA'))->toBeTrue();
});

it('accepts dutch postcodes', function () {
    expect(postcodePasses('NL', '1012 AB'))->toBeTrue();
});

it('rejects garbage', function () {
    expect(postcodePasses('DE', 'abc'))->toBeFalse();
});
