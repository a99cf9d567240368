<?php

use App\Models\Invoice;
use App\Models\User;

it('lists only the team invoices', function () {
    $user = User::factory()->create();
    Invoice::factory()->count(2)->for($user->team)->create();
    Invoice::factory()->create();

    $this->actingAs($user)
        ->get(route('invoices.index'))
        ->assertOk()
        ->assertViewHas('invoices', fn ($invoices) => $invoices->count() === 2);
});

it('filters by status', function () {
    $user = User::factory()->create();
    Invoice::factory()->for($user->team)->create(['status' => 'paid']);
    Invoice::factory()->for($user->team)->create(['status' => 'sent']);

    $this->actingAs($user)
        ->get(route('invoices.index', ['status' => 'paid']))
        ->assertViewHas('invoices', fn ($invoices) => $invoices->count() === 1);
});
