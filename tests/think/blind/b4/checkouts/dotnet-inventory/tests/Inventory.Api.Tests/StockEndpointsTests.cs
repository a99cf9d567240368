using System.Net;
using Microsoft.AspNetCore.Mvc.Testing;
using Xunit;

namespace Inventory.Api.Tests;

public class StockEndpointsTests : IClassFixture<WebApplicationFactory<Program>>
{
    private readonly HttpClient _client;

    public StockEndpointsTests(WebApplicationFactory<Program> factory) => _client = factory.CreateClient();

    [Fact]
    public async Task GetStock_UnknownSku_Returns404()
    {
        var response = await _client.GetAsync("/api/stock/NOPE-000");
        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
    }
}
