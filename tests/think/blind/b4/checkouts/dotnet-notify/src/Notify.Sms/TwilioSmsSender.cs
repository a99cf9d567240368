using System.Net.Http.Json;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace Notify.Sms;

public sealed class TwilioSmsSender : ISmsSender
{
    private readonly HttpClient _http;
    private readonly SmsOptions _options;
    private readonly ILogger<TwilioSmsSender> _log;

    public TwilioSmsSender(HttpClient http, IOptions<SmsOptions> options, ILogger<TwilioSmsSender> log)
    {
        _http = http;
        _options = options.Value;
        _log = log;
    }

    public async Task<SmsResult> SendAsync(SmsMessage message, CancellationToken ct = default)
    {
        using var content = BuildForm(message);
        var response = await _http.PostAsync($"Accounts/{_options.AccountSid}/Messages.json", content, ct);
        if (!response.IsSuccessStatusCode)
        {
            _log.LogWarning("SMS send failed with {Status}", (int)response.StatusCode);
            return SmsResult.Failed((int)response.StatusCode);
        }
        var body = await response.Content.ReadFromJsonAsync<TwilioMessageResponse>(cancellationToken: ct);
        return SmsResult.Sent(body!.Sid);
    }

    private FormUrlEncodedContent BuildForm(SmsMessage m) => new(new Dictionary<string, string>
    {
        ["To"] = m.To,
        ["From"] = _options.FromNumber,
        ["Body"] = m.Body,
    });
}
