//go:build integration

package sync

import "testing"

func TestReconcile_Live(t *testing.T) {
	t.Skip("needs STRIPE_TEST_KEY")
}
