using NSubstitute;
using Storefront.Core.Pricing;
using Xunit;

namespace Storefront.Core.Tests.Pricing;

public class DiscountCalculatorTests
{
    private readonly IPromoCodeRepository _promos = Substitute.For<IPromoCodeRepository>();

    [Fact]
    public void LineDiscount_IsZero_WithoutPromoCode()
    {
        var sut = new DiscountCalculator(_promos);
        var line = new CartLine("SKU-100", UnitPrice: 12.50m, Quantity: 2);

        Assert.Equal(0m, sut.LineDiscount(line, promoCode: null));
    }

    [Fact]
    public void LineDiscount_AppliesPromoPercent_RoundedAwayFromZero()
    {
        _promos.TryGet("SPRING10", out Arg.Any<PromoCode>())
            .Returns(x => { x[1] = new PromoCode("SPRING10", Percent: 10m, Skus: new[] { "SKU-100" }); return true; });
        var sut = new DiscountCalculator(_promos);

        Assert.Equal(2.50m, sut.LineDiscount(new CartLine("SKU-100", 12.50m, 2), "SPRING10"));
    }
}
