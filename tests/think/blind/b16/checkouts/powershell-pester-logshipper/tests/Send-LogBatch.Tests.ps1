BeforeAll { . $PSScriptRoot/../src/Public/Send-LogBatch.ps1 }
Describe 'Send-LogBatch' {
    It 'posts to the push endpoint' {
        Mock Invoke-RestMethod {}
        Send-LogBatch -LokiUrl http://loki:3100 -Labels @{ job = 'x' } -Line 'hello'
        Should -Invoke Invoke-RestMethod -ParameterFilter { $Uri -eq 'http://loki:3100/loki/api/v1/push' }
    }
}
