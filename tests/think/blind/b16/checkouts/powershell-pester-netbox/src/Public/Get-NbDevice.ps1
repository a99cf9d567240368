function Get-NbDevice {
    [CmdletBinding()]
    param([string]$Site, [string]$Role)
    $q = @()
    if ($Site) { $q += "site=$Site" }
    if ($Role) { $q += "role=$Role" }
    Invoke-NbApi -Path ("dcim/devices/?" + ($q -join '&'))
}
