<?php

use App\Support\MoneyFormatter;

it('formats cents as euros', function () {
    expect(MoneyFormatter::format(123456, 'EUR'))->toBe('€1,234.56');
});
