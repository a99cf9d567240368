package activities

import (
	"context"
	"fmt"

	"github.com/acme/payments/gateway"
)

type Activities struct {
	Gateway gateway.Client
}

type ChargeInput struct {
	OrderID     string
	AmountCents int64
	Currency    string
}

func (a *Activities) ChargeCard(ctx context.Context, in ChargeInput) (string, error) {
	if in.AmountCents <= 0 {
		return "", fmt.Errorf("invalid amount %d", in.AmountCents)
	}
	return a.Gateway.Charge(ctx, in.OrderID, in.AmountCents, in.Currency)
}
