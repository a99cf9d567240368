namespace Storefront.Core.Pricing;

public sealed class DiscountCalculator
{
    private readonly IPromoCodeRepository _promos;

    public DiscountCalculator(IPromoCodeRepository promos) => _promos = promos;

    public decimal LineDiscount(CartLine line, string? promoCode)
    {
        var discount = 0m;
        if (promoCode is not null && _promos.TryGet(promoCode, out var promo) && promo.AppliesTo(line.Sku))
        {
            discount += Math.Round(line.UnitPrice * line.Quantity * promo.Percent / 100m, 2, MidpointRounding.AwayFromZero);
        }
        return discount;
    }
}
