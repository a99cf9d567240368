package workflows

import (
	"testing"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/suite"
	"go.temporal.io/sdk/testsuite"

	"github.com/acme/orderflow/activities"
)

type OrderWorkflowSuite struct {
	suite.Suite
	testsuite.WorkflowTestSuite
	env *testsuite.TestWorkflowEnvironment
}

func (s *OrderWorkflowSuite) SetupTest() { s.env = s.NewTestWorkflowEnvironment() }

func (s *OrderWorkflowSuite) TestOrderWorkflow_HappyPath() {
	s.env.OnActivity(activities.ReserveStock, mock.Anything, mock.Anything).Return(activities.ReserveResult{ReservationID: "res-42"}, nil)
	s.env.OnActivity(activities.ChargeCard, mock.Anything, mock.Anything).Return("ch_42", nil)
	s.env.ExecuteWorkflow(OrderWorkflow, OrderInput{OrderID: "42", AmountCents: 1999})
	s.True(s.env.IsWorkflowCompleted())
	s.NoError(s.env.GetWorkflowError())
}

func TestOrderWorkflowSuite(t *testing.T) { suite.Run(t, new(OrderWorkflowSuite)) }
