namespace OrdersApi;

public static class OrderPricing
{
    public static decimal Total(Order order) =>
        order.Lines.Sum(l => l.Quantity * l.UnitPrice * (1 - l.Discount));
}
