local k8s = import 'k8s.libsonnet';

{
  orders: k8s.app('orders-api', 'registry.acme.io/orders-api:1.14.2', port=8080, replicas=3),
}
