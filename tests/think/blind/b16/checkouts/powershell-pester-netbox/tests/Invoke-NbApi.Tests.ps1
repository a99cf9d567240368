BeforeAll {
    . $PSScriptRoot/../src/Private/Invoke-NbApi.ps1
    $script:NbUrl = 'https://netbox.example.test'
    $script:NbToken = 'abc'
}

Describe 'Invoke-NbApi' {
    It 'joins the base url and path' {
        Mock Invoke-RestMethod { [pscustomobject]@{ results = @(1); next = $null } }
        Invoke-NbApi -Path '/dcim/devices/' | Out-Null
        Should -Invoke Invoke-RestMethod -ParameterFilter { $Uri -eq 'https://netbox.example.test/api/dcim/devices/' }
    }
}
