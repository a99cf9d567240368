namespace Tollgate.Core;

public sealed class TariffCalculator
{
    private readonly TariffTable _table;

    public TariffCalculator(TariffTable table) => _table = table;

    public decimal Charge(VehicleClass vehicle, DateTimeOffset passage)
    {
        var band = _table.BandFor(passage.TimeOfDay);
        return _table.BaseRate(vehicle) * band.Multiplier;
    }
}
