BeforeAll {
    Import-Module $PSScriptRoot/../src/PSCertWatch.psd1 -Force
}

Describe 'Get-CertExpiry' {
    It 'is exported' {
        Get-Command Get-CertExpiry -Module PSCertWatch | Should -Not -BeNullOrEmpty
    }
    It 'accepts pipeline input' {
        (Get-Command Get-CertExpiry).Parameters['HostName'].Attributes.ValueFromPipeline | Should -Contain $true
    }
}

Describe 'Module manifest' {
    It 'exports every public function' {
        $manifest = Import-PowerShellDataFile $PSScriptRoot/../src/PSCertWatch.psd1
        $files = (Get-ChildItem $PSScriptRoot/../src/Public/*.ps1).BaseName
        $manifest.FunctionsToExport | Sort-Object | Should -Be ($files | Sort-Object)
    }
}
