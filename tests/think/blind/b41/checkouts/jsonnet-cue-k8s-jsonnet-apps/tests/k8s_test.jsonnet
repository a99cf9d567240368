local k = import 'k8s.libsonnet';
local test = import 'test.libsonnet';

local app = k.app('orders-api', 'registry.acme.io/orders-api:1.0.0', port=8080);

test.suite({
  testDeploymentName:
    test.eq(app.deployment.metadata.name, 'orders-api'),
  testServicePort:
    test.eq(app.service.spec.ports[0].port, 8080),
  testDefaultReplicas:
    test.eq(app.deployment.spec.replicas, 2),
})
