// PSRule expansion test for the storage module
module test '../modules/storage.bicep' = {
  name: 'storage-test'
  params: {
    name: 'stwingtiptest001'
    location: 'westeurope'
  }
}
