using OrdersApi;
using Xunit;

namespace OrdersApi.Tests;

public class OrderPricingTests
{
    [Fact]
    public void Total_AppliesLineDiscounts()
    {
        var order = new Order("o-1", [new OrderLine("sku-1", 2, 10.00m, 0.1m)]);
        Assert.Equal(18.00m, OrderPricing.Total(order));
    }
}
