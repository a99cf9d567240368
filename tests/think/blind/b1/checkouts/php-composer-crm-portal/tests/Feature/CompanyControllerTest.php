<?php

use App\Models\User;

it('creates a company', function () {
    $this->actingAs(User::factory()->admin()->create())
        ->post('/companies', ['name' => 'Acme BV', 'country' => 'NL', 'postcode' => '1012 AB'])
        ->assertRedirect();
});

it('requires a name', function () {
    $this->actingAs(User::factory()->admin()->create())
        ->post('/companies', ['country' => 'NL', 'postcode' => '1012 AB'])
        ->assertSessionHasErrors('name');
});
