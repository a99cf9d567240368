try:
    from ._version import __version__
except ImportError:
    import warnings
    warnings.warn("Importing 'acme_ext' outside a proper installation.")
    __version__ = "dev"
from .handlers import setup_handlers


def _jupyter_labextension_paths():
    return [{"src": "labextension", "dest": "jupyterlab-acme"}]


def _jupyter_server_extension_points():
    return [{"module": "acme_ext"}]


def _load_jupyter_server_extension(server_app):
    setup_handlers(server_app.web_app)
    name = "acme_ext"
    server_app.log.info(f"Registered {name} server extension")
