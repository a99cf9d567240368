package controller

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	cachev1beta1 "github.com/acme/redis-operator/api/v1beta1"
)

var _ = Describe("RedisCluster Controller", func() {
	It("creates the headless service and statefulset", func() {
		ctx := context.Background()
		rc := &cachev1beta1.RedisCluster{
			ObjectMeta: metav1.ObjectMeta{Name: "rc-basic", Namespace: "default"},
			Spec:       cachev1beta1.RedisClusterSpec{Shards: 3, ReplicasPerShard: 1},
		}
		Expect(k8sClient.Create(ctx, rc)).To(Succeed())
		r := &RedisClusterReconciler{Client: k8sClient, Scheme: k8sClient.Scheme()}
		_, err := r.Reconcile(ctx, reconcile.Request{NamespacedName: types.NamespacedName{Name: "rc-basic", Namespace: "default"}})
		Expect(err).NotTo(HaveOccurred())
	})
})
