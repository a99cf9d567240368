param name string
param location string
@allowed([
  'B1'
  'B2'
  'P1v3'
  'P2v3'
])
param skuName string = 'B1'

resource plan 'Microsoft.Web/serverfarms@2023-12-01' = {
  name: name
  location: location
  kind: 'linux'
  sku: {
    name: skuName
  }
  properties: {
    reserved: true
  }
}

output id string = plan.id
