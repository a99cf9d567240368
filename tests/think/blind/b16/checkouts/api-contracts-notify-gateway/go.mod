module github.com/acme/notify-gateway

go 1.22

require (
	github.com/go-chi/chi/v5 v5.0.12
	github.com/oapi-codegen/runtime v1.1.1
	github.com/stretchr/testify v1.9.0
)
