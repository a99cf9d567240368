from .definitions import defs as defs
