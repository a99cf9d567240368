param([ValidateSet('Build', 'Test')][string]$Task = 'Test')
$ErrorActionPreference = 'Stop'
dotnet publish $PSScriptRoot/src/PSFastCsv -c Release -o $PSScriptRoot/module/PSFastCsv
if ($LASTEXITCODE) { throw "dotnet publish failed" }
if ($Task -eq 'Test') {
    pwsh -NoProfile -c "Invoke-Pester -Path '$PSScriptRoot/tests' -CI"
    if ($LASTEXITCODE) { throw "Pester failed" }
}
