BeforeAll {
    $root = Split-Path -Parent $PSScriptRoot
    $fixture = Join-Path $PSScriptRoot 'fixtures/naming.test.bicep'
    $json = & bicep build $fixture --stdout | ConvertFrom-Json
    $outputs = $json.outputs
}

Describe 'naming functions' {
    It 'builds a keyvault name' {
        $outputs.kvName.value | Should -Be 'kv-payroll-prd-weu-001'
    }
    It 'keeps storage names within 24 characters' {
        $outputs.stName.value.Length | Should -BeLessOrEqual 24
    }
    It 'strips hyphens from storage names' {
        $outputs.stName.value | Should -Not -Match '-'
    }
}
