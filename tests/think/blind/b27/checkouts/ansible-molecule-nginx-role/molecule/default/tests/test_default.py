def test_nginx_installed(host):
    assert host.package("nginx").is_installed


def test_nginx_running(host):
    svc = host.service("nginx")
    assert svc.is_running
    assert svc.is_enabled


def test_nginx_listening(host):
    assert host.socket("tcp://0.0.0.0:80").is_listening


def test_server_tokens_off(host):
    conf = host.file("/etc/nginx/nginx.conf")
    assert conf.contains("server_tokens off;")
