module github.com/example/memcached-operator

go 1.23.0

require (
	github.com/onsi/ginkgo/v2 v2.21.0
	github.com/onsi/gomega v1.35.1
	k8s.io/api v0.31.2
	k8s.io/apimachinery v0.31.2
	k8s.io/client-go v0.31.2
	sigs.k8s.io/controller-runtime v0.19.1
)
