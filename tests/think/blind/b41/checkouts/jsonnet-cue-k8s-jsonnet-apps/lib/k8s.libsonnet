local k = import 'github.com/jsonnet-libs/k8s-libsonnet/1.29/main.libsonnet';

{
  app(name, image, port=8080, replicas=2):: {
    local container = k.core.v1.container.new(name, image)
                      + k.core.v1.container.withPorts([k.core.v1.containerPort.new('http', port)]),
    deployment: k.apps.v1.deployment.new(name, replicas, [container]),
    service: k.util.serviceFor(self.deployment),
  },
}
