BeforeAll { Import-Module $PSScriptRoot/../module/PSFastCsv/PSFastCsv.dll -Force }
Describe 'Import-FastCsv' {
    It 'reads a simple file' {
        Set-Content TestDrive:/a.csv "name,age`nann,31"
        (Import-FastCsv TestDrive:/a.csv).name | Should -Be 'ann'
    }
}
