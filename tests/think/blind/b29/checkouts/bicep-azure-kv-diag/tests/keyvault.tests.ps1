BeforeAll {
    $root = Split-Path -Parent $PSScriptRoot
    $json = & bicep build "$root/modules/keyvault.bicep" --stdout | ConvertFrom-Json
    $vault = $json.resources | Where-Object { $_.type -eq 'Microsoft.KeyVault/vaults' }
}

Describe 'keyvault module' {
    It 'uses RBAC authorization' {
        $vault.properties.enableRbacAuthorization | Should -BeTrue
    }
    It 'enables purge protection' {
        $vault.properties.enablePurgeProtection | Should -BeTrue
    }
    It 'disables public network access' {
        $vault.properties.publicNetworkAccess | Should -Be 'Disabled'
    }
}
