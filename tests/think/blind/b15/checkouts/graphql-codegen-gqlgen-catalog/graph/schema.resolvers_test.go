package graph

import (
	"context"
	"testing"

	"github.com/acme/catalog-api/graph/model"
	"github.com/stretchr/testify/require"
)

func TestQueryProducts_FiltersArchived(t *testing.T) {
	r := &queryResolver{&Resolver{Store: newMemStore(
		&model.Product{ID: "1", Name: "Mug", Archived: false},
		&model.Product{ID: "2", Name: "Old mug", Archived: true},
	)}}
	got, err := r.Products(context.Background(), nil)
	require.NoError(t, err)
	require.Len(t, got, 1)
	require.Equal(t, "Mug", got[0].Name)
}
