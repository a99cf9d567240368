function Invoke-NbApi {
    param([string]$Path, [string]$Method = 'GET', [hashtable]$Body)
    $headers = @{ Authorization = "Token $($script:NbToken)"; Accept = 'application/json' }
    $uri = "$($script:NbUrl.TrimEnd('/'))/api/$($Path.TrimStart('/'))"
    $resp = Invoke-RestMethod -Uri $uri -Method $Method -Headers $headers -Body ($Body | ConvertTo-Json -Depth 5) -ContentType 'application/json'
    $resp.results
}
