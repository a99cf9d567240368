using Shop.Web.Services;
using Xunit;

namespace Shop.Web.Tests;

public class CartServiceTests
{
    private readonly InMemoryCartStore _store = new();

    [Fact]
    public void Add_raises_changed()
    {
        var cart = new CartService(_store);
        var raised = 0;
        cart.Changed += () => raised++;

        cart.Add("SKU-1", 2);

        Assert.Equal(1, raised);
        Assert.Single(cart.Lines);
    }

    [Fact]
    public void Remove_deletes_line()
    {
        var cart = new CartService(_store);
        cart.Add("SKU-1", 1);

        cart.Remove("SKU-1");

        Assert.Empty(cart.Lines);
    }
}
