package workflows

import (
	"testing"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/suite"
	"go.temporal.io/sdk/testsuite"

	"github.com/acme/shipping/activities"
)

type ShipmentSuite struct {
	suite.Suite
	testsuite.WorkflowTestSuite
	env *testsuite.TestWorkflowEnvironment
}

func (s *ShipmentSuite) SetupTest() { s.env = s.NewTestWorkflowEnvironment() }

func (s *ShipmentSuite) TestShipmentWorkflow() {
	var c *activities.Carrier
	s.env.OnActivity(c.CreateLabel, mock.Anything, "42", "dhl").Return("LBL-42", nil)
	s.env.ExecuteWorkflow(ShipmentWorkflow, ShipmentInput{OrderID: "42", Carrier: "dhl"})
	s.True(s.env.IsWorkflowCompleted())
	s.NoError(s.env.GetWorkflowError())
}

func TestShipmentSuite(t *testing.T) { suite.Run(t, new(ShipmentSuite)) }
