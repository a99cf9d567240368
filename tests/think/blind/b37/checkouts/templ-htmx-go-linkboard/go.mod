module github.com/dev/linkboard

go 1.22

require (
	github.com/a-h/templ v0.2.771
	github.com/go-chi/chi/v5 v5.1.0
	modernc.org/sqlite v1.33.1
)
