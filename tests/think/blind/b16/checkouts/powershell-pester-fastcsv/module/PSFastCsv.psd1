@{
    RootModule        = 'PSFastCsv.dll'
    ModuleVersion     = '0.3.0'
    GUID              = '9d3f7a51-0c2e-4b8e-a7f1-3e5a2c9b6d40'
    CmdletsToExport   = @('Import-FastCsv')
    PowerShellVersion = '7.4'
}
