from .transforms import scale_features

__all__ = ["scale_features"]
