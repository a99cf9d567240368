package workflows

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/acme/orderflow/activities"
)

var defaultActivityOptions = workflow.ActivityOptions{
	StartToCloseTimeout: 30 * time.Second,
	RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 5},
}

type OrderInput struct {
	OrderID     string
	AmountCents int64
}

type OrderResult struct {
	Status   string
	ChargeID string
}

func OrderWorkflow(ctx workflow.Context, in OrderInput) (OrderResult, error) {
	ctx = workflow.WithActivityOptions(ctx, defaultActivityOptions)
	var res activities.ReserveResult
	if err := workflow.ExecuteActivity(ctx, activities.ReserveStock, in).Get(ctx, &res); err != nil {
		return OrderResult{}, err
	}
	var chargeID string
	if err := workflow.ExecuteActivity(ctx, activities.ChargeCard, in).Get(ctx, &chargeID); err != nil {
		return OrderResult{}, err
	}
	return OrderResult{Status: "CONFIRMED", ChargeID: chargeID}, nil
}
