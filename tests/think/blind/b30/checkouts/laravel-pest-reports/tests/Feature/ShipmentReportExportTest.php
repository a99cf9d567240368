<?php

use App\Exports\ShipmentReportExport;
use App\Models\Shipment;
use Maatwebsite\Excel\Facades\Excel;

it('downloads the monthly shipment report', function () {
    Excel::fake();
    Shipment::factory()->count(3)->create(['shipped_at' => now()->startOfMonth()]);

    $this->actingAs(\App\Models\User::factory()->admin()->create())
        ->get('/reports/shipments?month='.now()->format('Y-m'))
        ->assertOk();

    Excel::assertDownloaded('shipments-'.now()->format('Y-m').'.xlsx', function (ShipmentReportExport $export) {
        return $export->collection()->count() === 3;
    });
});
