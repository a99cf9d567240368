local app = import 'app.libsonnet';

local rendered = app { _config+:: { replicas: 4 } };

assert rendered.deployment.spec.replicas == 4 : 'test failed: expected 4, got %d' % rendered.deployment.spec.replicas;
assert rendered.deployment.spec.template.spec.containers[0].resources.limits.memory == '256Mi';
true
