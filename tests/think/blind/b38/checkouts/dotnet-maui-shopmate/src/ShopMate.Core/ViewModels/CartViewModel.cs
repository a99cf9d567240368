using System.Collections.ObjectModel;
using CommunityToolkit.Mvvm.ComponentModel;
using CommunityToolkit.Mvvm.Input;
using ShopMate.Core.Models;

namespace ShopMate.Core.ViewModels;

public partial class CartViewModel : ObservableObject
{
    public ObservableCollection<CartLine> Lines { get; } = new();

    [ObservableProperty]
    private decimal subtotal;

    [RelayCommand]
    private void AddItem(Product product)
    {
        var line = Lines.FirstOrDefault(l => l.ProductId == product.Id);
        if (line is null)
        {
            Lines.Add(new CartLine(product.Id, product.Name, product.Price, 1));
        }
        else
        {
            line.Quantity++;
        }
        Recalculate();
    }

    [RelayCommand]
    private void RemoveItem(CartLine line)
    {
        Lines.Remove(line);
        Recalculate();
    }

    private void Recalculate() => Subtotal = Lines.Sum(l => l.Price * l.Quantity);
}
