module github.com/dev/giftlist

go 1.23

require (
	github.com/a-h/templ v0.3.819
	github.com/jackc/pgx/v5 v5.7.1
)
