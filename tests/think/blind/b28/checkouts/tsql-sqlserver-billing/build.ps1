param(
    [ValidateSet('Build', 'Publish', 'Test', 'All')]
    [string]$Task = 'All',
    [string]$Server = 'localhost,1433',
    [string]$Database = 'BillingTest'
)
$ErrorActionPreference = 'Stop'
$dacpac = 'Billing.Database/bin/Debug/netstandard2.1/Billing.Database.dacpac'
$cred = "User Id=sa;Password=$env:SA_PASSWORD;TrustServerCertificate=True"

function Invoke-Build { dotnet build Billing.Database/Billing.Database.sqlproj -nologo; if ($LASTEXITCODE) { throw 'build failed' } }
function Invoke-Publish {
    Invoke-Build
    SqlPackage /Action:Publish /SourceFile:$dacpac /TargetConnectionString:"Server=$Server;Database=$Database;$cred"
    if ($LASTEXITCODE) { throw 'publish failed' }
    Get-ChildItem Billing.Tests -Recurse -Filter *.sql | ForEach-Object {
        Invoke-Sqlcmd -ServerInstance $Server -Database $Database -Username sa -Password $env:SA_PASSWORD -InputFile $_.FullName -TrustServerCertificate
    }
}
function Invoke-Test {
    Invoke-Publish
    Invoke-Sqlcmd -ServerInstance $Server -Database $Database -Username sa -Password $env:SA_PASSWORD -TrustServerCertificate `
        -Query 'EXEC tSQLt.RunAll' -QueryTimeout 600 -Verbose
}
switch ($Task) { 'Build' { Invoke-Build } 'Publish' { Invoke-Publish } 'Test' { Invoke-Test } 'All' { Invoke-Test } }
