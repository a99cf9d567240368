param location string = resourceGroup().location
param env string
param appName string = 'relecloud-web'

module plan 'modules/appplan.bicep' = {
  name: 'plan'
  params: {
    name: 'asp-${appName}-${env}'
    location: location
    skuName: env == 'prd' ? 'P1v3' : 'B1'
  }
}

module site 'modules/webapp.bicep' = {
  name: 'site'
  params: {
    name: 'app-${appName}-${env}'
    location: location
    planId: plan.outputs.id
  }
}
