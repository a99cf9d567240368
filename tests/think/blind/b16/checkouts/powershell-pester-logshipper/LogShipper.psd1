@{
    RootModule        = 'LogShipper.psm1'
    ModuleVersion     = '3.0.1'
    GUID              = '0b7e8a3c-64a4-4f0a-93e1-8a1f4d2f6e90'
    Author            = 'SRE'
    Description       = 'Ships Windows and Linux logs to Loki.'
    PowerShellVersion = '7.2'
    FunctionsToExport = @('Send-LogBatch', 'Start-LogShipper', 'Stop-LogShipper')
    PrivateData       = @{
        PSData = @{
            Tags         = @('Logging', 'Loki')
            ReleaseNotes = 'See CHANGELOG.md'
        }
    }
}
