package workflows

import (
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/acme/shipping/activities"
)

type ShipmentInput struct {
	OrderID string
	Carrier string
}

func ShipmentWorkflow(ctx workflow.Context, in ShipmentInput) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	var c *activities.Carrier
	var label string
	if err := workflow.ExecuteActivity(ctx, c.CreateLabel, in.OrderID, in.Carrier).Get(ctx, &label); err != nil {
		return "", err
	}
	return label, nil
}
