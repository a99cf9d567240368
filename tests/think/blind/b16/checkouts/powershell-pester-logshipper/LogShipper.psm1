Get-ChildItem $PSScriptRoot/src/Public/*.ps1 | ForEach-Object { . $_.FullName }
