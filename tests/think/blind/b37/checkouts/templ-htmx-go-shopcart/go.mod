module github.com/dev/shopcart

go 1.23

require (
	github.com/a-h/templ v0.2.793
	github.com/jackc/pgx/v5 v5.6.0
	github.com/lib/pq v1.10.9
)
