using CommunityToolkit.Maui;
using Microsoft.Extensions.Logging;
using ShopMate.App.Views;
using ShopMate.Core.Services;
using ShopMate.Core.ViewModels;

namespace ShopMate.App;

public static class MauiProgram
{
    public static MauiApp CreateMauiApp()
    {
        var builder = MauiApp.CreateBuilder();
        builder
            .UseMauiApp<App>()
            .UseMauiCommunityToolkit()
            .ConfigureFonts(fonts =>
            {
                fonts.AddFont("OpenSans-Regular.ttf", "OpenSansRegular");
            });

        builder.Services.AddSingleton<ICatalogService, CatalogService>();
        builder.Services.AddTransient<CartViewModel>();
        builder.Services.AddTransient<CartPage>();

#if DEBUG
        builder.Logging.AddDebug();
#endif
        return builder.Build();
    }
}
