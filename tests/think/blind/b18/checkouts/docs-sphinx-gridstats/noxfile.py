import nox

nox.options.reuse_existing_virtualenvs = True


@nox.session(python=["3.11"])
def tests(session):
    session.install("-e", ".[test]")
    session.run("pytest", "--cov=gridstats", "-q", *session.posargs)


@nox.session
def docs(session):
    session.install("-e", ".", "-r", "docs/requirements.txt")
    session.run("sphinx-build", "-W", "-b", "html", "docs", "docs/_build/html")
    session.run("sphinx-build", "-b", "doctest", "docs", "docs/_build/doctest")
