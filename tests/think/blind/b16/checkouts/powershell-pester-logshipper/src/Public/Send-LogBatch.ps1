function Send-LogBatch {
    [CmdletBinding()]
    param(
        [Parameter(Mandatory)][string]$LokiUrl,
        [Parameter(Mandatory)][hashtable]$Labels,
        [Parameter(Mandatory)][string[]]$Line
    )
    $ns = [DateTimeOffset]::UtcNow.ToUnixTimeMilliseconds() * 1000000
    $body = @{ streams = @(@{ stream = $Labels; values = @($Line | ForEach-Object { , @("$ns", $_) }) }) }
    Invoke-RestMethod -Uri "$LokiUrl/loki/api/v1/push" -Method Post -Body ($body | ConvertTo-Json -Depth 6) -ContentType 'application/json'
}
