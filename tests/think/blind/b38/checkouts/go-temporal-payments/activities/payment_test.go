package activities

import (
	"testing"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/testsuite"
)

func TestChargeCard(t *testing.T) {
	var ts testsuite.WorkflowTestSuite
	env := ts.NewTestActivityEnvironment()
	a := &Activities{Gateway: &fakeGateway{}}
	env.RegisterActivity(a)

	val, err := env.ExecuteActivity(a.ChargeCard, ChargeInput{OrderID: "42", AmountCents: 1999, Currency: "EUR"})
	require.NoError(t, err)
	var id string
	require.NoError(t, val.Get(&id))
	require.Equal(t, "ch_42", id)
}
