local k = import 'k.libsonnet';

{
  _config+:: {
    name: 'orders-api',
    image: 'registry.acme.io/orders-api:1.14.2',
    replicas: 2,
    memoryLimit: '256Mi',
    port: 8080,
  },

  local c = $._config,
  local container = k.core.v1.container,

  deployment: k.apps.v1.deployment.new(
    name=c.name,
    replicas=c.replicas,
    containers=[
      container.new(c.name, c.image)
      + container.withPorts([k.core.v1.containerPort.new('http', c.port)])
      + container.resources.withLimits({ memory: c.memoryLimit }),
    ],
  ),
}
