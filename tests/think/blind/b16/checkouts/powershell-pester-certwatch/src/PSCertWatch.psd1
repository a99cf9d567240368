@{
    RootModule        = 'PSCertWatch.psm1'
    ModuleVersion     = '1.2.0'
    GUID              = '6f1c0b3e-2b7a-4c1e-9d0a-4f3f1b9e2c11'
    Author            = 'Platform Team'
    PowerShellVersion = '7.2'
    FunctionsToExport = @('Get-CertExpiry', 'Watch-CertStore', 'Send-CertReport')
    PrivateData       = @{
        PSData = @{
            Tags       = @('Certificates', 'Monitoring', 'PKI')
            ProjectUri = 'https://github.com/contoso/PSCertWatch'
        }
    }
}
