function Get-CertExpiry {
    [CmdletBinding()]
    param(
        [Parameter(Mandatory, ValueFromPipeline)][string]$HostName,
        [int]$Port = 443
    )
    process {
        $tcp = [System.Net.Sockets.TcpClient]::new($HostName, $Port)
        try {
            $ssl = [System.Net.Security.SslStream]::new($tcp.GetStream(), $false, { $true })
            $ssl.AuthenticateAsClient($HostName)
            $cert = [System.Security.Cryptography.X509Certificates.X509Certificate2]$ssl.RemoteCertificate
            [pscustomobject]@{ HostName = $HostName; NotAfter = $cert.NotAfter; DaysLeft = ($cert.NotAfter - (Get-Date)).Days }
        } finally { $tcp.Dispose() }
    }
}
