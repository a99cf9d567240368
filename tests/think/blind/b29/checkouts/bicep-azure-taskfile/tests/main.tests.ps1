BeforeAll {
    $root = Split-Path -Parent $PSScriptRoot
    $json = Get-Content "$root/out/main.json" -Raw | ConvertFrom-Json
}

Describe 'main template' {
    It 'declares the env parameter' {
        $json.parameters.env | Should -Not -BeNullOrEmpty
    }
    It 'deploys two modules' {
        @($json.resources | Where-Object type -eq 'Microsoft.Resources/deployments').Count | Should -Be 2
    }
}
