// Shared naming conventions (CAF style abbreviations)

@export()
@description('Builds a resource name: <abbr>-<workload>-<env>-<region short>-<instance>')
func resourceName(abbr string, workload string, env string, region string, instance int) string =>
  toLower('${abbr}-${workload}-${env}-${regionShort(region)}-${padLeft(string(instance), 3, '0')}')

@export()
func storageName(workload string, env string, region string) string =>
  take(toLower(replace('st${workload}${env}${regionShort(region)}', '-', '')), 24)

func regionShort(region string) string => {
  westeurope: 'weu'
  northeurope: 'neu'
  eastus2: 'eus2'
}[region]
