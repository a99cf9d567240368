[CmdletBinding()]
param([ValidateSet('Analyze', 'Test', 'All')][string]$Task = 'All')
$ErrorActionPreference = 'Stop'
if ($Task -in 'Analyze', 'All') {
    $r = Invoke-ScriptAnalyzer -Path $PSScriptRoot/src -Recurse -Severity Warning, Error
    if ($r) { $r | Format-Table; throw "PSScriptAnalyzer found $($r.Count) issue(s)" }
}
if ($Task -in 'Test', 'All') {
    $cfg = New-PesterConfiguration
    $cfg.Run.Path = "$PSScriptRoot/tests"
    $cfg.Run.Exit = $true
    $cfg.TestResult.Enabled = $true
    Invoke-Pester -Configuration $cfg
}
