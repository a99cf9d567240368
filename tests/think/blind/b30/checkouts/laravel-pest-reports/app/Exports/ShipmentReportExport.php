<?php

namespace App\Exports;

use App\Models\Shipment;
use Illuminate\Support\Carbon;
use Maatwebsite\Excel\Concerns\FromCollection;
use Maatwebsite\Excel\Concerns\WithHeadings;

class ShipmentReportExport implements FromCollection, WithHeadings
{
    public function __construct(private Carbon $month) {}

    public function collection()
    {
        return Shipment::query()
            ->whereBetween('shipped_at', [$this->month->copy()->startOfMonth(), $this->month->copy()->endOfMonth()])
            ->get(['reference', 'carrier', 'weight_kg', 'shipped_at']);
    }

    public function headings(): array
    {
        return ['Reference', 'Carrier', 'Weight (kg)', 'Shipped at'];
    }
}
