@{
    RootModule        = 'PSNetBox.psm1'
    ModuleVersion     = '0.6.2'
    GUID              = 'c2a4d9f0-5d0e-4d6b-8a8a-2f6b1fdc3a77'
    Author            = 'NetOps'
    PowerShellVersion = '7.2'
    FunctionsToExport = @('Get-NbDevice', 'Get-NbPrefix', 'New-NbIpAddress')
}
