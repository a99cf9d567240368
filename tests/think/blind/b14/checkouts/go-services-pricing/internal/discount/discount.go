package discount

import "github.com/shopspring/decimal"

type Rule struct {
	MinQty  int
	Percent decimal.Decimal
}

// Apply returns the discounted unit price for qty items.
func Apply(price decimal.Decimal, qty int, rules []Rule) decimal.Decimal {
	best := decimal.Zero
	for _, r := range rules {
		if qty >= r.MinQty && r.Percent.GreaterThan(best) {
			best = r.Percent
		}
	}
	return price.Mul(decimal.NewFromInt(1).Sub(best.Div(decimal.NewFromInt(100))))
}
