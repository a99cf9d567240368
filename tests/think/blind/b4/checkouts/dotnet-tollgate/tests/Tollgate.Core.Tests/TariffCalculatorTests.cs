using NUnit.Framework;
using Tollgate.Core;

namespace Tollgate.Core.Tests;

public class TariffCalculatorTests
{
    [Test]
    public void Charge_PeakBand_AppliesMultiplier()
    {
        var sut = new TariffCalculator(TariffTable.Default);
        var charge = sut.Charge(VehicleClass.Car, new DateTimeOffset(2026, 3, 2, 8, 15, 0, TimeSpan.Zero));
        Assert.That(charge, Is.EqualTo(3.60m));
    }
}
