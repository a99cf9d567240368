package api

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestGetHealth(t *testing.T) {
	srv := NewServer(nil)
	rec := httptest.NewRecorder()
	srv.GetHealth(rec, httptest.NewRequest(http.MethodGet, "/health", nil))
	require.Equal(t, http.StatusOK, rec.Code)
}
