using ShopMate.Core.Models;
using ShopMate.Core.ViewModels;
using Xunit;

namespace ShopMate.Core.Tests.ViewModels;

public class CartViewModelTests
{
    private static readonly Product Apple = new(1, "Apple", 0.50m);
    private static readonly Product Bread = new(2, "Bread", 2.25m);

    [Fact]
    public void AddItem_NewProduct_AddsLine()
    {
        var vm = new CartViewModel();
        vm.AddItemCommand.Execute(Apple);
        Assert.Single(vm.Lines);
    }

    [Fact]
    public void AddItem_SameProductTwice_IncrementsQuantity()
    {
        var vm = new CartViewModel();
        vm.AddItemCommand.Execute(Apple);
        vm.AddItemCommand.Execute(Apple);
        Assert.Equal(2, vm.Lines[0].Quantity);
    }

    [Fact]
    public void Subtotal_SumsLines()
    {
        var vm = new CartViewModel();
        vm.AddItemCommand.Execute(Apple);
        vm.AddItemCommand.Execute(Bread);
        Assert.Equal(2.75m, vm.Subtotal);
    }
}
