//go:build integration

package tests

import (
	"context"
	"testing"

	"go.temporal.io/sdk/client"
)

func TestNotifyWorkflowIntegration(t *testing.T) {
	c, err := client.Dial(client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, _ = c.ExecuteWorkflow(context.Background(), client.StartWorkflowOptions{TaskQueue: "notify"}, "NotifyWorkflow", "42")
}
