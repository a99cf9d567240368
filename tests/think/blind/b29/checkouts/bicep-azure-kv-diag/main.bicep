targetScope = 'resourceGroup'

param location string = resourceGroup().location
param env string
param logAnalyticsWorkspaceId string

module kv 'modules/keyvault.bicep' = {
  name: 'kv-${env}'
  params: {
    name: 'kv-woodgrove-${env}'
    location: location
  }
}

output keyVaultUri string = kv.outputs.vaultUri
