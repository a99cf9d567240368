module github.com/acme/catalog-api

go 1.22

require (
	github.com/99designs/gqlgen v0.17.49
	github.com/stretchr/testify v1.9.0
	github.com/vektah/gqlparser/v2 v2.5.16
)
