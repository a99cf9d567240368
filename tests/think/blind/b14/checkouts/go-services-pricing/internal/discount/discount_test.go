package discount

import (
	"testing"

	"github.com/shopspring/decimal"
)

func TestApply_PicksBestRule(t *testing.T) {
	rules := []Rule{{MinQty: 10, Percent: decimal.NewFromInt(5)}, {MinQty: 50, Percent: decimal.NewFromInt(12)}}
	got := Apply(decimal.NewFromInt(200), 60, rules)
	if !got.Equal(decimal.NewFromInt(176)) {
		t.Fatalf("got %s, want 176", got)
	}
}
