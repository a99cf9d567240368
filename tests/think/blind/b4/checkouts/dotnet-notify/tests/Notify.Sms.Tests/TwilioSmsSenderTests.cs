using System.Net;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;
using NUnit.Framework;
using RichardSzalay.MockHttp;

namespace Notify.Sms.Tests;

[TestFixture]
public class TwilioSmsSenderTests
{
    private MockHttpMessageHandler _handler = null!;
    private TwilioSmsSender _sut = null!;

    [SetUp]
    public void SetUp()
    {
        _handler = new MockHttpMessageHandler();
        var http = _handler.ToHttpClient();
        http.BaseAddress = new Uri("https://api.twilio.test/2010-04-01/");
        _sut = new TwilioSmsSender(http, Options.Create(new SmsOptions { AccountSid = "AC123", FromNumber = "+15550001111" }),
            NullLogger<TwilioSmsSender>.Instance);
    }

    [Test]
    public async Task SendAsync_ReturnsSid_OnCreated()
    {
        _handler.When(HttpMethod.Post, "*/Messages.json").Respond(HttpStatusCode.Created, "application/json", "{\"sid\":\"SM42\"}");

        var result = await _sut.SendAsync(new SmsMessage("+15552223333", "hi"));

        Assert.That(result.Sid, Is.EqualTo("SM42"));
    }

    [Test]
    public async Task SendAsync_ReturnsFailed_OnBadRequest()
    {
        _handler.When(HttpMethod.Post, "*/Messages.json").Respond(HttpStatusCode.BadRequest);

        var result = await _sut.SendAsync(new SmsMessage("+15552223333", "hi"));

        Assert.That(result.Succeeded, Is.False);
    }
}
