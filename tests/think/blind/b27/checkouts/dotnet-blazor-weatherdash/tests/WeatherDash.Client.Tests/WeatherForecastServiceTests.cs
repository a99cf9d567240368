using System.Net;
using RichardSzalay.MockHttp;
using WeatherDash.Client.Services;
using Xunit;

namespace WeatherDash.Client.Tests;

public class WeatherForecastServiceTests
{
    [Fact]
    public async Task Requests_the_selected_range()
    {
        var handler = new MockHttpMessageHandler();
        handler.Expect("http://localhost/api/forecast?from=2025-06-01&to=2025-06-07")
               .Respond("application/json", "[]");
        var service = new WeatherForecastService(CreateClient(handler));

        await service.GetForecastsAsync(new DateOnly(2025, 6, 1), new DateOnly(2025, 6, 7));

        handler.VerifyNoOutstandingExpectation();
    }

    private static HttpClient CreateClient(MockHttpMessageHandler h)
    {
        var c = h.ToHttpClient();
        c.BaseAddress = new Uri("http://localhost/");
        return c;
    }
}
