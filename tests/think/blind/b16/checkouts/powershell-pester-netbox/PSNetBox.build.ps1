param($Configuration = 'Debug')
$ModuleName = 'PSNetBox'
$Output = "$BuildRoot/output/$ModuleName"

task Clean { Remove-Item $Output -Recurse -Force -ErrorAction Ignore }

task Build Clean, {
    $null = New-Item $Output -ItemType Directory -Force
    Copy-Item $BuildRoot/src/$ModuleName.psd1 $Output
    Get-ChildItem $BuildRoot/src/Private/*.ps1, $BuildRoot/src/Public/*.ps1 |
        Get-Content | Set-Content $Output/$ModuleName.psm1
}

task Analyze {
    $r = Invoke-ScriptAnalyzer -Path $BuildRoot/src -Recurse -Settings $BuildRoot/PSScriptAnalyzerSettings.psd1
    if ($r) { $r | Format-Table -AutoSize; throw "PSScriptAnalyzer found $($r.Count) issue(s)." }
}

task Test Build, {
    $cfg = New-PesterConfiguration
    $cfg.Run.Path = "$BuildRoot/tests"
    $cfg.Run.PassThru = $true
    $cfg.Output.Verbosity = 'Normal'
    $r = Invoke-Pester -Configuration $cfg
    if ($r.FailedCount -or $r.FailedContainersCount) { throw "Pester run failed: $($r.FailedCount) test(s) failed." }
}

task . Analyze, Test
