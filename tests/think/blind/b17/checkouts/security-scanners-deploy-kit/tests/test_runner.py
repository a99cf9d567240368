from deploykit.config import Target
from deploykit import runner


def test_push_builds_rsync_command(mocker):
    run = mocker.patch("deploykit.runner.subprocess.run")
    runner.push("dist/", Target(user="deploy", host="web-1"), "/srv/app")
    args, kwargs = run.call_args
    assert args[0] == "rsync -az --delete dist/ deploy@web-1:/srv/app"
    assert kwargs["shell"] is True
